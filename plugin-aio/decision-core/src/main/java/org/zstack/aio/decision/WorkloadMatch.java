package org.zstack.aio.decision;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * How well each io mode should do on a disk's observed workload, from a benchmark's cells: each cell weighs by its
 * closeness to the profile, and a mode's expected figure is the weighted geometric mean of its ops/s relative to
 * threads on the same cell (ratios, so a workload with large numbers does not drown one with small ones; see
 * BenchScores). Pure.
 * <p>Closeness is a distance over three axes: |log2| of the block size ratio (a cell's direction compared with
 * the profile's average size of that direction), |log2| of the queue depth ratio, and the read-fraction
 * difference × {@value #READ_FRACTION_SCALE} (reads and writes differ more than 4K and 64K do: a full swap counts as
 * a 16x size difference). Weights are inverse squared distances (Shepard's interpolation), so the figure varies
 * smoothly with the profile and a profile equal to a cell takes exactly that cell's figures.
 */
public final class WorkloadMatch {

    static final double READ_FRACTION_SCALE = 4;
    /** Distances this small count as the same workload (floating noise of a measured profile). */
    static final double SAME = 1e-9;

    private WorkloadMatch() {
    }

    /** The distance between a cell and a profile (0: the same workload). */
    public static double distance(WorkloadCell c, WorkloadProfile p) {
        double size = log2(c.blockBytes()) - log2(Math.max(1, p.avgBytes(c.readFraction() >= 0.5)));
        double depth = log2(c.queueDepth()) - log2(Math.max(1, p.avgQueueDepth()));
        double read = (c.readFraction() - p.readFraction()) * READ_FRACTION_SCALE;
        return Math.sqrt(size * size + depth * depth + read * read);
    }

    /**
     * Each mode's expected ops/s relative to threads on this workload; a mode is scored only when it was measured,
     * with threads, on every cell that carries weight. Empty when no cell has threads measured.
     */
    public static Map<IoMode, Double> expectedRatios(List<WorkloadCell> cells, WorkloadProfile p) {
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
                weights.add(1 / (d * d));
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
}
