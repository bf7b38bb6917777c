package org.zstack.aio.decision;

import java.util.Locale;
import java.util.Objects;

/**
 * A disk's observed workload (docs/contract.md, "Workload"), as the server keeps it from the agent's block counters: the
 * share of requests that read, the average request size of each direction, the request rates, and the average
 * number of requests in flight (Little's law: summed request time over wall time). All figures are time-decayed
 * averages; {@code sampledSeconds} is how much wall time the samples covered, {@code sampledAt} the last sample.
 */
public final class WorkloadProfile {

    private final double readFraction;
    private final double avgReadBytes;
    private final double avgWriteBytes;
    private final double readIops;
    private final double writeIops;
    private final double avgQueueDepth;
    private final double sampledSeconds;
    private final String sampledAt;

    public WorkloadProfile(double readFraction, double avgReadBytes, double avgWriteBytes, double readIops,
                           double writeIops, double avgQueueDepth, double sampledSeconds, String sampledAt) {
        this.readFraction = finite(readFraction, "readFraction");
        this.avgReadBytes = finite(avgReadBytes, "avgReadBytes");
        this.avgWriteBytes = finite(avgWriteBytes, "avgWriteBytes");
        this.readIops = finite(readIops, "readIops");
        this.writeIops = finite(writeIops, "writeIops");
        this.avgQueueDepth = finite(avgQueueDepth, "avgQueueDepth");
        this.sampledSeconds = finite(sampledSeconds, "sampledSeconds");
        this.sampledAt = sampledAt;
        if (readFraction > 1) throw new IllegalArgumentException("readFraction must be in [0, 1]: " + readFraction);
    }

    private static double finite(double v, String name) {
        if (Double.isNaN(v) || Double.isInfinite(v) || v < 0) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0: " + v);
        }
        return v;
    }

    public double readFraction() { return readFraction; }

    public double avgReadBytes() { return avgReadBytes; }

    public double avgWriteBytes() { return avgWriteBytes; }

    public double readIops() { return readIops; }

    public double writeIops() { return writeIops; }

    public double avgQueueDepth() { return avgQueueDepth; }

    public double sampledSeconds() { return sampledSeconds; }

    public String sampledAt() { return sampledAt; }

    /** The average size of one direction's requests; the other direction's when this one saw none. */
    public double avgBytes(boolean read) {
        double own = read ? avgReadBytes : avgWriteBytes;
        double other = read ? avgWriteBytes : avgReadBytes;
        return own > 0 ? own : other;
    }

    /** For a reason sentence, e.g. "78 % 4K writes, depth ~40". */
    public String describe() {
        boolean reads = readFraction >= 0.5;
        long pct = Math.round((reads ? readFraction : 1 - readFraction) * 100);
        return pct + " % " + size(avgBytes(reads)) + " " + (reads ? "reads" : "writes") + ", depth ~" + depth(avgQueueDepth);
    }

    static String size(double bytes) {
        if (bytes >= 1 << 20) return trim(bytes / (1 << 20)) + "M";
        if (bytes >= 1024) return trim(bytes / 1024) + "K";
        return Math.round(bytes) + "B";
    }

    private static String trim(double v) {
        return v >= 10 || Math.abs(v - Math.round(v)) < 0.05 ? Long.toString(Math.round(v)) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static String depth(double d) {
        return d >= 10 ? Long.toString(Math.round(d)) : String.format(Locale.ROOT, "%.1f", d);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof WorkloadProfile)) return false;
        WorkloadProfile p = (WorkloadProfile) o;
        return readFraction == p.readFraction && avgReadBytes == p.avgReadBytes && avgWriteBytes == p.avgWriteBytes
               && readIops == p.readIops && writeIops == p.writeIops && avgQueueDepth == p.avgQueueDepth
               && sampledSeconds == p.sampledSeconds && Objects.equals(sampledAt, p.sampledAt);
    }

    @Override
    public int hashCode() {
        return Objects.hash(readFraction, avgReadBytes, avgWriteBytes, readIops, writeIops, avgQueueDepth, sampledSeconds, sampledAt);
    }

    @Override
    public String toString() {
        return "WorkloadProfile[readFraction=" + readFraction + ", avgReadBytes=" + avgReadBytes + ", avgWriteBytes="
               + avgWriteBytes + ", readIops=" + readIops + ", writeIops=" + writeIops + ", avgQueueDepth=" + avgQueueDepth
               + ", sampledSeconds=" + sampledSeconds + ", sampledAt=" + sampledAt + "]";
    }
}
