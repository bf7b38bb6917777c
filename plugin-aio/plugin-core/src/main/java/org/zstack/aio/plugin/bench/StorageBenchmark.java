package org.zstack.aio.plugin.bench;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.WorkloadCell;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark of one host × primary storage for one image kind, as stored: its date, how it ended, and its lines
 * (the script's own lines, {@link BenchLine}, plus a {@code skipped=} line per mode the host did not allow). The lines
 * are the stored form: {@link #linesText()} and {@link #restore} go through the same parser as the host's output, so
 * what is shown is what was measured. {@link #performance()} folds them into what {@code auto} weighs.
 */
public final class StorageBenchmark {

    /** Every request of a run is 4 KiB (host-bench.sh). */
    static final double BLOCK_BYTES = 4096;

    private final String hostUuid;
    private final String primaryStorageUuid;
    private final ImageKind kind;
    private final String takenAt;
    private final BenchOutcome outcome;
    private final String note;
    private final List<BenchLine> lines;

    public StorageBenchmark(String hostUuid, String primaryStorageUuid, ImageKind kind, String takenAt,
                            BenchOutcome outcome, String note, List<BenchLine> lines) {
        if (hostUuid == null || primaryStorageUuid == null || kind == null || outcome == null) {
            throw new IllegalArgumentException("a benchmark needs its host, storage, image kind and outcome");
        }
        this.hostUuid = hostUuid;
        this.primaryStorageUuid = primaryStorageUuid;
        this.kind = kind;
        this.takenAt = takenAt;
        this.outcome = outcome;
        this.note = note;
        this.lines = Collections.unmodifiableList(new ArrayList<BenchLine>(lines));
    }

    /**
     * A stored benchmark read back. A stored line this version cannot read is kept as a failed line saying so (it
     * weighs nothing).
     */
    public static StorageBenchmark restore(String hostUuid, String primaryStorageUuid, String kind, String takenAt,
                                           String outcome, String note, String linesText) {
        List<BenchLine> ls = new ArrayList<BenchLine>();
        if (linesText != null) {
            for (String l : linesText.split("\n")) {
                BenchLine b = BenchLine.parse(l);
                if (b != null) ls.add(b);
            }
        }
        return new StorageBenchmark(hostUuid, primaryStorageUuid, ImageKind.parse(kind), takenAt,
                BenchOutcome.valueOf(outcome), note, ls);
    }

    public String hostUuid() { return hostUuid; }

    public String primaryStorageUuid() { return primaryStorageUuid; }

    public ImageKind kind() { return kind; }

    /** ISO-8601 UTC, when the first run started. */
    public String takenAt() { return takenAt; }

    public BenchOutcome outcome() { return outcome; }

    /** Why it ended as it did (null: complete without a word). */
    public String note() { return note; }

    public List<BenchLine> lines() { return lines; }

    /** The lines, one per line of text, as stored. */
    public String linesText() {
        StringBuilder b = new StringBuilder();
        for (BenchLine l : lines) b.append(l.text()).append('\n');
        return b.toString();
    }

    /**
     * What {@code auto} weighs for a volume of this kind on this storage: a cell per workload (read or write, depth)
     * with each mode's ops/s, and per mode the geometric mean over the workloads of its ops/s relative to threads (the
     * standalone's metric, agent-api's BenchScores: a ratio, so a workload with large numbers does not drown one with
     * small ones). A mode that failed on any workload of this storage gets no score (its measured cells stay, for
     * what they are). Null when nothing can be weighed: the outcome keeps no figures, or threads was measured on no
     * workload.
     */
    public ModePerformance performance() {
        if (!outcome.keepsFigures()) return null;
        Map<String, Map<IoMode, Double>> ops = new LinkedHashMap<String, Map<IoMode, Double>>();
        Map<String, BenchLine> shape = new LinkedHashMap<String, BenchLine>();
        Set<IoMode> failed = EnumSet.noneOf(IoMode.class);
        for (BenchLine l : lines) {
            if (l.kind() == BenchLine.Kind.FAILED && l.mode() != null) failed.add(l.mode());
            if (l.kind() != BenchLine.Kind.MEASURED) continue;
            String w = BenchRun.workloadName(l.read(), l.depth());
            Map<IoMode, Double> cell = ops.get(w);
            if (cell == null) {
                cell = new EnumMap<IoMode, Double>(IoMode.class);
                ops.put(w, cell);
                shape.put(w, l);
            }
            cell.put(l.mode(), (double) l.iops()); // a run made twice: the later one stands
        }
        List<WorkloadCell> cells = new ArrayList<WorkloadCell>(ops.size());
        for (Map.Entry<String, Map<IoMode, Double>> e : ops.entrySet()) {
            BenchLine s = shape.get(e.getKey());
            cells.add(new WorkloadCell(e.getKey(), s.read() ? 1 : 0, BLOCK_BYTES, s.depth(), e.getValue()));
        }
        Map<IoMode, Double> scores = new EnumMap<IoMode, Double>(IoMode.class);
        for (IoMode m : IoMode.values()) {
            if (failed.contains(m)) continue;
            double logSum = 0;
            int n = 0;
            boolean missing = false;
            for (WorkloadCell c : cells) {
                Double t = c.ops(IoMode.THREADS);
                if (t == null) continue; // a workload without threads ranks nothing
                Double v = c.ops(m);
                if (v == null) {
                    missing = true;
                    break;
                }
                logSum += Math.log(v / t);
                n++;
            }
            if (!missing && n > 0) scores.put(m, Math.exp(logSum / n));
        }
        if (scores.isEmpty()) return null;
        return new ModePerformance(scores, metric(cells), takenAt, cells);
    }

    /** For the reason sentence: which workloads, where and when. */
    private String metric(List<WorkloadCell> cells) {
        StringBuilder names = new StringBuilder();
        for (WorkloadCell c : cells) names.append(names.length() == 0 ? "" : ", ").append(c.name());
        return "geomean of " + cells.size() + " qemu-img bench workload" + (cells.size() == 1 ? "" : "s") + " (" + names
               + ") on " + kind.name() + " of this storage, taken " + takenAt;
    }

    @Override
    public String toString() {
        return "StorageBenchmark[" + hostUuid + " x " + primaryStorageUuid + ", " + kind + ", " + takenAt + ", " + outcome
               + ", " + lines.size() + " lines]";
    }
}
