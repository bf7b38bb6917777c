package org.zstack.aio.decision;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How well each io mode should do on a disk's observed workload, from a benchmark's cells: each cell weighs by its
 * closeness to the profile, and a mode's expected figure is the weighted geometric mean of its ops/s relative to
 * threads on the same cell (ratios, so a workload with large numbers does not drown one with small ones; see
 * BenchScores). Pure and immutable; the tunables come from the rules file ({@code workloadMatch:}).
 * <p>Closeness is a distance over three axes: |log2| of the block size ratio (a cell's direction compared with
 * the profile's average size of that direction) × {@code sizeWeight}, |log2| of the queue depth ratio ×
 * {@code depthWeight}, and the read-fraction difference × {@code readFractionWeight} (by default 4: reads and writes
 * differ more than 4K and 64K do, a full swap counts as a 16x size difference). Weights are
 * 1 / distance^{@code distancePower} (Shepard's interpolation, by default squared), so the figure varies smoothly
 * with the profile and a profile equal to a cell takes exactly that cell's figures.
 */
public final class WorkloadMatch {

    /** The shipped tunables (conf/aio/io-mode-rules.yaml), used when the rules file names none. */
    public static final WorkloadMatch DEFAULT = new WorkloadMatch(1, 1, 4, 2, 0.01);

    /** Per-axis weights above this make every distance overflow-prone and mean nothing more. */
    static final double MAX_WEIGHT = 1000;
    /** Powers above this push the far cells' weights under double's range (a distance of 50 to the 10th is 1e17). */
    static final double MAX_POWER = 10;
    /** Distances this small count as the same workload (floating noise of a measured profile), not a tunable. */
    static final double SAME = 1e-9;

    private final double sizeWeight;
    private final double depthWeight;
    private final double readFractionWeight;
    private final double distancePower;
    private final double idleIops;

    /**
     * @param sizeWeight         distance per octave (doubling) of request size, in [0, 1000]
     * @param depthWeight        distance per octave of queue depth, in [0, 1000]
     * @param readFractionWeight distance of all reads against all writes, in [0, 1000]; at least one weight is > 0
     * @param distancePower      a cell weighs 1 / distance^this, in (0, 10]
     * @param idleIops           below this many requests/s (reads + writes) a profile is idle and ignored, >= 0
     * @throws IllegalArgumentException naming the rules file's key of the first bad value
     */
    public WorkloadMatch(double sizeWeight, double depthWeight, double readFractionWeight, double distancePower,
                         double idleIops) {
        this.sizeWeight = weight(sizeWeight, "sizeWeight");
        this.depthWeight = weight(depthWeight, "depthWeight");
        this.readFractionWeight = weight(readFractionWeight, "readFractionWeight");
        if (sizeWeight == 0 && depthWeight == 0 && readFractionWeight == 0) {
            throw new IllegalArgumentException("workloadMatch: at least one of sizeWeight, depthWeight and "
                                               + "readFractionWeight must be > 0, or every cell is the same workload");
        }
        if (!(distancePower > 0 && distancePower <= MAX_POWER)) {
            throw new IllegalArgumentException("workloadMatch.distancePower must be in (0, " + (long) MAX_POWER + "]: " + distancePower);
        }
        if (!(idleIops >= 0) || Double.isInfinite(idleIops)) {
            throw new IllegalArgumentException("workloadMatch.idleIops must be a finite number >= 0: " + idleIops);
        }
        this.distancePower = distancePower;
        this.idleIops = idleIops;
    }

    private static double weight(double v, String key) {
        if (!(v >= 0 && v <= MAX_WEIGHT)) {
            throw new IllegalArgumentException("workloadMatch." + key + " must be in [0, " + (long) MAX_WEIGHT + "]: " + v);
        }
        return v;
    }

    public double sizeWeight() { return sizeWeight; }

    public double depthWeight() { return depthWeight; }

    public double readFractionWeight() { return readFractionWeight; }

    public double distancePower() { return distancePower; }

    public double idleIops() { return idleIops; }

    /** No requests worth the name: the decision then ignores the profile. */
    public boolean idle(WorkloadProfile p) {
        return p.readIops() + p.writeIops() < idleIops;
    }

    /** The distance between a cell and a profile (0: the same workload). */
    public double distance(WorkloadCell c, WorkloadProfile p) {
        double size = (log2(c.blockBytes()) - log2(Math.max(1, p.avgBytes(c.readFraction() >= 0.5)))) * sizeWeight;
        double depth = (log2(c.queueDepth()) - log2(Math.max(1, p.avgQueueDepth()))) * depthWeight;
        double read = (c.readFraction() - p.readFraction()) * readFractionWeight;
        return Math.sqrt(size * size + depth * depth + read * read);
    }

    /** A cell's weight at this distance (> SAME); squared by multiplication, exactly as before it was tunable. */
    double weightAt(double d) {
        return 1 / (distancePower == 2 ? d * d : Math.pow(d, distancePower));
    }

    /**
     * Each mode's expected ops/s relative to threads on this workload; a mode is scored only when it was measured,
     * with threads, on every cell that carries weight. Empty when no cell has threads measured.
     */
    public Map<IoMode, Double> expectedRatios(List<WorkloadCell> cells, WorkloadProfile p) {
        List<WorkloadCell> usable = new ArrayList<>(cells.size());
        List<Double> weights = new ArrayList<>(cells.size());
        boolean exact = false;
        for (WorkloadCell c : cells) {
            if (c.ops(IoMode.THREADS) == null) continue;
            double d = distance(c, p);
            if (d <= SAME) {
                if (!exact) { // an exact measurement beats any interpolation
                    usable.clear();
                    weights.clear();
                    exact = true;
                }
                usable.add(c);
                weights.add(1.0);
            } else if (!exact) {
                usable.add(c);
                weights.add(weightAt(d));
            }
        }
        Map<IoMode, Double> out = new EnumMap<>(IoMode.class);
        if (usable.isEmpty()) return out;
        for (IoMode m : IoMode.values()) {
            double logSum = 0;
            double weightSum = 0;
            boolean missing = false;
            for (int i = 0; i < usable.size(); i++) {
                WorkloadCell c = usable.get(i);
                Double ops = c.ops(m);
                if (ops == null) {
                    missing = true;
                    break;
                }
                logSum += weights.get(i) * Math.log(ops / c.ops(IoMode.THREADS));
                weightSum += weights.get(i);
            }
            if (!missing) out.put(m, Math.exp(logSum / weightSum));
        }
        return out;
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof WorkloadMatch)) return false;
        WorkloadMatch w = (WorkloadMatch) o;
        return sizeWeight == w.sizeWeight && depthWeight == w.depthWeight && readFractionWeight == w.readFractionWeight
               && distancePower == w.distancePower && idleIops == w.idleIops;
    }

    @Override
    public int hashCode() { return Objects.hash(sizeWeight, depthWeight, readFractionWeight, distancePower, idleIops); }

    @Override
    public String toString() {
        return "WorkloadMatch[sizeWeight=" + sizeWeight + ", depthWeight=" + depthWeight + ", readFractionWeight="
               + readFractionWeight + ", distancePower=" + distancePower + ", idleIops=" + idleIops + "]";
    }
}
