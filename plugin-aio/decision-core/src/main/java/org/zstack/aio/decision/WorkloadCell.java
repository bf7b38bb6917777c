package org.zstack.aio.decision;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * One workload of a benchmark (e.g. 4K random writes at depth 64) with the ops/s each io mode reached on it. The
 * workload-aware {@code auto} weights these by how close each is to a disk's observed {@link WorkloadProfile}.
 */
public final class WorkloadCell {

    private final String name;
    private final double readFraction;
    private final double blockBytes;
    private final double queueDepth;
    private final Map<IoMode, Double> ops;

    /**
     * @param readFraction 1 for reads, 0 for writes, between for a mix
     * @param ops          ops/s per mode; a mode missing (or not positive) was not measured on this workload
     */
    public WorkloadCell(String name, double readFraction, double blockBytes, double queueDepth, Map<IoMode, Double> ops) {
        if (!(readFraction >= 0 && readFraction <= 1)) throw new IllegalArgumentException("readFraction in [0, 1]: " + readFraction);
        if (!(blockBytes > 0) || !(queueDepth > 0)) throw new IllegalArgumentException("block size and depth must be > 0");
        this.name = Objects.requireNonNull(name, "name");
        this.readFraction = readFraction;
        this.blockBytes = blockBytes;
        this.queueDepth = queueDepth;
        EnumMap<IoMode, Double> copy = new EnumMap<>(IoMode.class);
        for (Map.Entry<IoMode, Double> e : ops.entrySet()) {
            Double v = e.getValue();
            if (e.getKey() != null && v != null && !v.isNaN() && !v.isInfinite() && v > 0) copy.put(e.getKey(), v);
        }
        this.ops = Collections.unmodifiableMap(copy);
    }

    public String name() { return name; }

    public double readFraction() { return readFraction; }

    public double blockBytes() { return blockBytes; }

    public double queueDepth() { return queueDepth; }

    public Map<IoMode, Double> ops() { return ops; }

    /** ops/s of a mode, null when not measured here. */
    public Double ops(IoMode m) { return ops.get(m); }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof WorkloadCell)) return false;
        WorkloadCell c = (WorkloadCell) o;
        return name.equals(c.name) && readFraction == c.readFraction && blockBytes == c.blockBytes
               && queueDepth == c.queueDepth && ops.equals(c.ops);
    }

    @Override
    public int hashCode() { return Objects.hash(name, readFraction, blockBytes, queueDepth, ops); }

    @Override
    public String toString() { return "WorkloadCell[" + name + ", ops=" + ops + "]"; }
}
