package org.zstack.aio.agent.bench;

import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.agent.api.HostBenchRsp;
import org.zstack.aio.agent.api.HostBenchRsp.BenchCell;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark as a text table (ratios to threads), with what {@code auto} would pick per image kind on file
 * storage with the shipped rules (native only on a fully preallocated image; threads and io_uring everywhere),
 * and how close that pick gets to the best allowed mode on every workload. The pick follows the decision's
 * rule (IoModeDecider.pickMeasured): the fastest by score unless an earlier mode of [io_uring, native, threads]
 * is within the tie margin.
 */
public final class BenchTable {

    public static final List<String> PREFERENCE = List.of("io_uring", "native", "threads");

    private BenchTable() {
    }

    /** Modes auto may use for a kind on file storage with default rules. */
    public static List<String> allowedOnFileStorage(String kind) {
        return kind.endsWith("-full") ? PREFERENCE : List.of("io_uring", "threads");
    }

    /** The mode auto picks from these scores among the allowed ones, null when none was measured. */
    public static String pick(Map<String, Double> scores, List<String> allowed, double margin) {
        String best = null;
        for (String m : PREFERENCE) {
            if (allowed.contains(m) && scores.containsKey(m) && (best == null || scores.get(m) > scores.get(best))) best = m;
        }
        if (best == null) return null;
        for (String m : PREFERENCE) {
            if (allowed.contains(m) && scores.containsKey(m) && scores.get(m) >= scores.get(best) * (1 - margin)) return m;
        }
        return best;
    }

    public static String render(HostBenchRsp r, double margin) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "qemu-img bench on %s (%s), budget %d s, took %.1f s%s%n", r.path(), r.qemuImg(),
                r.budgetSeconds(), r.seconds(), r.complete() ? "" : " - INCOMPLETE: " + r.note()));
        sb.append("median ops/s over the runs (n), ± half of (max-min)/median; ratios to threads; auto = pick on file storage\n");
        sb.append(String.format(Locale.ROOT, "%-15s %-18s %-16s %-16s %-16s %8s %8s  %-8s %8s %9s%n", "image", "workload",
                "threads", "native", "io_uring", "nat/thr", "uring/thr", "auto", "auto/thr", "auto/best"));
        Set<String> kinds = new LinkedHashSet<>();
        r.cells().forEach(c -> kinds.add(c.imageKind()));
        List<String> summary = new ArrayList<>();
        for (String kind : kinds) {
            Map<String, Double> scores = BenchScores.scores(r.cells(), kind);
            List<String> allowed = allowedOnFileStorage(kind);
            String auto = pick(scores, allowed, margin);
            Map<String, Map<String, BenchCell>> rows = new LinkedHashMap<>();
            for (BenchCell c : r.cells()) {
                if (c.imageKind().equals(kind)) rows.computeIfAbsent(c.workload(), w -> new LinkedHashMap<>()).put(c.mode(), c);
            }
            double worst = Double.POSITIVE_INFINITY;
            String worstWl = null;
            for (var e : rows.entrySet()) {
                Map<String, BenchCell> m = e.getValue();
                double t = ops(m.get("threads"));
                double bestAllowed = 0;
                for (String a : allowed) bestAllowed = Math.max(bestAllowed, ops(m.get(a)));
                double a = auto == null ? 0 : ops(m.get(auto));
                double ofBest = bestAllowed > 0 ? a / bestAllowed : 0;
                if (ofBest < worst) {
                    worst = ofBest;
                    worstWl = e.getKey();
                }
                sb.append(String.format(Locale.ROOT, "%-15s %-18s %-16s %-16s %-16s %8s %8s  %-8s %8s %9s%n", kind, e.getKey(),
                        cell(m.get("threads")), cell(m.get("native")), cell(m.get("io_uring")),
                        ratio(ops(m.get("native")), t), ratio(ops(m.get("io_uring")), t), auto == null ? "-" : auto,
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
