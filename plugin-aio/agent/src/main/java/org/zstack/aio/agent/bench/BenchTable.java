package org.zstack.aio.agent.bench;

import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.agent.api.HostBenchRsp;
import org.zstack.aio.agent.api.HostBenchRsp.BenchCell;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.StorageKind;
import org.zstack.aio.decision.VolumeFacts;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark as a text table (ratios to threads), with what {@code auto} would pick per image kind on file
 * storage with the shipped rules, and how close that pick gets to the best allowed mode on every workload. Both
 * questions go to the decider: which modes a file image of the kind allows ({@link IoModeDecider#check}; io_uring's
 * host checks aside, the benchmark ran on this host) and the measured pick ({@link IoModeDecider#pickMeasured}).
 */
public final class BenchTable {

    private static final String THREADS = IoMode.THREADS.wire();
    private static final String NATIVE = IoMode.NATIVE.wire();
    private static final String IO_URING = IoMode.IO_URING.wire();

    private final IoModeDecider decider;

    public BenchTable(IoModeDecider decider) {
        this.decider = decider;
    }

    /** Modes auto may use for an image kind ("qcow2-full") on file storage with cache none, in preference order. */
    public List<IoMode> allowedOnFileStorage(String kind) {
        String[] formatAndPrealloc = kind.split("-", 2);
        String fileStorage = decider.rules().storageTypes().entrySet().stream()
                .filter(e -> e.getValue() == StorageKind.FILE).map(Map.Entry::getKey).findFirst().orElse(null);
        VolumeFacts image = new VolumeFacts(null, fileStorage, formatAndPrealloc[0], formatAndPrealloc[1], null, null,
                CACHE_NONE);
        List<IoMode> out = new ArrayList<>();
        for (IoMode m : decider.rules().preference()) {
            if (m == IoMode.IO_URING || decider.check(m, image, null).passed()) out.add(m);
        }
        return out;
    }

    private static final String CACHE_NONE = "none";

    /** The mode auto picks from these scores (by mode name) among the allowed ones, null when none was measured. */
    public IoMode pick(Map<String, Double> scores, List<IoMode> allowed, double margin) {
        Map<IoMode, Double> byMode = new EnumMap<>(IoMode.class);
        scores.forEach((m, v) -> byMode.put(IoMode.fromWire(m), v));
        List<IoMode> measured = allowed.stream().filter(byMode::containsKey).toList();
        return IoModeDecider.pickMeasured(measured, new ModePerformance(byMode, null, null), margin);
    }

    public String render(HostBenchRsp r, double margin) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "qemu-img bench on %s (%s), budget %d s, took %.1f s%s%n", r.path(), r.qemuImg(),
                r.budgetSeconds(), r.seconds(), r.complete() ? "" : " - INCOMPLETE: " + r.note()));
        sb.append("median ops/s over the runs (n), ± half of (max-min)/median; ratios to threads; auto = pick on file storage\n");
        sb.append(String.format(Locale.ROOT, "%-15s %-18s %-16s %-16s %-16s %8s %8s  %-8s %8s %9s%n", "image", "workload",
                THREADS, NATIVE, IO_URING, "nat/thr", "uring/thr", "auto", "auto/thr", "auto/best"));
        Set<String> kinds = new LinkedHashSet<>();
        r.cells().forEach(c -> kinds.add(c.imageKind()));
        List<String> summary = new ArrayList<>();
        for (String kind : kinds) {
            Map<String, Double> scores = BenchScores.scores(r.cells(), kind);
            List<IoMode> allowed = allowedOnFileStorage(kind);
            IoMode pick = pick(scores, allowed, margin);
            String auto = pick == null ? null : pick.wire();
            Map<String, Map<String, BenchCell>> rows = new LinkedHashMap<>();
            for (BenchCell c : r.cells()) {
                if (c.imageKind().equals(kind)) rows.computeIfAbsent(c.workload(), w -> new LinkedHashMap<>()).put(c.mode(), c);
            }
            double worst = Double.POSITIVE_INFINITY;
            String worstWl = null;
            for (var e : rows.entrySet()) {
                Map<String, BenchCell> m = e.getValue();
                double t = ops(m.get(THREADS));
                double bestAllowed = 0;
                for (IoMode a : allowed) bestAllowed = Math.max(bestAllowed, ops(m.get(a.wire())));
                double a = auto == null ? 0 : ops(m.get(auto));
                double ofBest = bestAllowed > 0 ? a / bestAllowed : 0;
                if (ofBest < worst) {
                    worst = ofBest;
                    worstWl = e.getKey();
                }
                sb.append(String.format(Locale.ROOT, "%-15s %-18s %-16s %-16s %-16s %8s %8s  %-8s %8s %9s%n", kind, e.getKey(),
                        cell(m.get(THREADS)), cell(m.get(NATIVE)), cell(m.get(IO_URING)),
                        ratio(ops(m.get(NATIVE)), t), ratio(ops(m.get(IO_URING)), t), auto == null ? "-" : auto,
                        ratio(a, t), bestAllowed > 0 ? String.format(Locale.ROOT, "%.0f%%", ofBest * 100) : "-"));
            }
            StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%-15s score", kind));
            scores.forEach((m, v) -> s.append(String.format(Locale.ROOT, " %s %.2f", m, v)));
            s.append(String.format(Locale.ROOT, " -> auto %s (allowed %s); worst workload %s at %.0f%% of the best allowed",
                    auto, allowed, worstWl, worst * 100));
            summary.add(s.toString());
        }
        sb.append("\nscore = geometric mean over the kind's workloads of median(mode)/median(threads):\n");
        summary.forEach(s -> sb.append(s).append('\n'));
        return sb.toString();
    }

    private static double ops(BenchCell c) {
        return c == null || c.error() != null ? 0 : c.medianOps();
    }

    private static String cell(BenchCell c) {
        if (c == null) return "-";
        if (c.error() != null) return "FAILED";
        return String.format(Locale.ROOT, "%s ±%.0f%% (%d)", human(c.medianOps()), c.spread() * 50, c.runs());
    }

    private static String ratio(double a, double b) {
        return a > 0 && b > 0 ? String.format(Locale.ROOT, "%.2f", a / b) : "-";
    }

    static String human(double v) {
        if (v >= 100_000) return String.format(Locale.ROOT, "%.0fk", v / 1000);
        if (v >= 1000) return String.format(Locale.ROOT, "%.1fk", v / 1000);
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
