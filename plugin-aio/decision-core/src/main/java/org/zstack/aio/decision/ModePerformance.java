package org.zstack.aio.decision;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Measured performance of each io mode for one volume's image kind on one host × primary storage, as the agent's
 * benchmark found it ({@code qemu-img bench}). Optional input of the decision: with it, {@code auto} prefers the
 * fastest mode among those whose checks pass; without it, the static preference order.
 */
public final class ModePerformance {

    private final Map<IoMode, Double> scores;
    private final String metric;
    private final String takenAt;
    private final List<WorkloadCell> cells;

    /**
     * @param scores  a comparable figure per measured mode, larger is faster (e.g. ops/s, or the geometric mean of
     *                the per-workload ratios to threads); a mode missing here was not measured
     * @param metric  what the scores are, for the reason sentence (e.g. "geomean of 7 workloads, qcow2 full")
     * @param takenAt when the measurement was taken (ISO-8601), may be null
     */
    public ModePerformance(Map<IoMode, Double> scores, String metric, String takenAt) {
        this(scores, metric, takenAt, Collections.<WorkloadCell>emptyList());
    }

    /**
     * @param cells the benchmark's workloads behind the scores, each with its ops/s per mode; with them and a disk's
     *              observed workload, {@code auto} weights the cells by closeness ({@link WorkloadMatch})
     */
    public ModePerformance(Map<IoMode, Double> scores, String metric, String takenAt, List<WorkloadCell> cells) {
        Objects.requireNonNull(scores, "scores");
        this.cells = Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(cells, "cells")));
        EnumMap<IoMode, Double> copy = new EnumMap<>(IoMode.class);
        for (Map.Entry<IoMode, Double> e : scores.entrySet()) {
            Double s = e.getValue();
            if (e.getKey() != null && s != null && !s.isNaN() && !s.isInfinite() && s > 0) copy.put(e.getKey(), s);
        }
        this.scores = Collections.unmodifiableMap(copy);
        this.metric = metric == null ? "measured ops/s" : metric;
        this.takenAt = takenAt;
    }

    public Map<IoMode, Double> scores() { return scores; }

    public String metric() { return metric; }

    public String takenAt() { return takenAt; }

    /** The benchmark's workloads behind the scores (empty when only the aggregate is known). */
    public List<WorkloadCell> cells() { return cells; }

    /** The score of a mode, null when it was not measured. */
    public Double score(IoMode m) {
        return scores.get(m);
    }

    /** A mode's score as a ratio to threads' score, null when either was not measured. */
    public Double ratioToThreads(IoMode m) {
        Double t = scores.get(IoMode.THREADS);
        Double s = scores.get(m);
        return t == null || s == null ? null : s / t;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ModePerformance)) return false;
        ModePerformance p = (ModePerformance) o;
        return scores.equals(p.scores) && metric.equals(p.metric) && Objects.equals(takenAt, p.takenAt)
               && cells.equals(p.cells);
    }

    @Override
    public int hashCode() { return Objects.hash(scores, metric, takenAt, cells); }

    @Override
    public String toString() { return "ModePerformance[scores=" + scores + ", metric=" + metric + ", takenAt=" + takenAt + ", cells=" + cells.size() + "]"; }
}
