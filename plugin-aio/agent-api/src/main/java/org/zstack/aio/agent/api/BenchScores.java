package org.zstack.aio.agent.api;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.WorkloadCell;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The benchmark's matrix and its ranking metric, shared by the agent's CLI and the management server so both rank
 * modes the same way.
 * <p>Ranking metric of an image kind: for each mode, the geometric mean over the kind's workloads of
 * {@code median(mode) / median(threads)}. A ratio rather than raw ops/s so that a workload with large numbers
 * (4K read qd64) does not drown one with small numbers (qd1); geometric so that 2x on one workload and 0.5x on
 * another cancel out. threads scores 1 by construction.
 */
public final class BenchScores {

    /** Image kinds a file storage uses: format-preallocation; "none" is sparse. */
    public static final List<String> IMAGE_KINDS = List.of("qcow2-none", "qcow2-metadata", "qcow2-falloc", "qcow2-full",
            "raw-none", "raw-full");

    /** Workloads: 4K random read/write at depth 1, 16, 64 and 64K sequential write at depth 16. */
    public static final List<String> WORKLOADS = List.of("randread-4k-qd1", "randread-4k-qd16", "randread-4k-qd64",
            "randwrite-4k-qd1", "randwrite-4k-qd16", "randwrite-4k-qd64", "seqwrite-64k-qd16");

    /** The io modes measured, by name, in the order they are declared. */
    public static final List<String> MODES = Stream.of(IoMode.values()).map(IoMode::wire).toList();

    private BenchScores() {
    }

    /** The image kind of a volume (format, preallocation), or null when the benchmark has no such kind. */
    public static String imageKind(String format, String preallocation) {
        String f = format == null ? "qcow2" : format.toLowerCase(Locale.ROOT);
        String p = preallocation == null ? "none" : preallocation.toLowerCase(Locale.ROOT);
        if ("off".equals(p)) p = "none";
        String kind = f + "-" + p;
        return IMAGE_KINDS.contains(kind) ? kind : null;
    }

    /** Reads are only measured on fully written kinds: reading a hole never reaches the disk. */
    public static boolean measuresReads(String imageKind) {
        return imageKind.endsWith("-full");
    }

    /**
     * Score per mode of one image kind (see the class comment); empty when threads or the kind was not measured.
     * A mode that failed on any workload of the kind is left out.
     */
    public static Map<String, Double> scores(List<HostBenchRsp.BenchCell> cells, String imageKind) {
        Map<String, Map<String, Double>> byWorkload = new LinkedHashMap<>();
        List<String> failed = new ArrayList<>();
        for (HostBenchRsp.BenchCell c : cells) {
            if (!c.imageKind().equals(imageKind)) continue;
            if (c.error() != null || c.medianOps() <= 0) {
                failed.add(c.mode());
                continue;
            }
            byWorkload.computeIfAbsent(c.workload(), w -> new LinkedHashMap<>()).put(c.mode(), c.medianOps());
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (String mode : MODES) {
            if (failed.contains(mode)) continue;
            double logSum = 0;
            int n = 0;
            boolean missing = false;
            for (Map<String, Double> w : byWorkload.values()) {
                Double t = w.get(IoMode.THREADS.wire());
                Double m = w.get(mode);
                if (t == null || m == null) {
                    missing = true;
                    break;
                }
                logSum += Math.log(m / t);
                n++;
            }
            if (!missing && n > 0) out.put(mode, Math.exp(logSum / n));
        }
        return out;
    }

    private static final Pattern WORKLOAD = Pattern.compile("(?:rand|seq)(read|write)-([0-9]+)k-qd([0-9]+)");

    /**
     * The kind's workloads as the decision's cells (direction, block size, queue depth, ops/s per mode), for weighing
     * them by a disk's observed workload. A failed or unmeasured mode is left out of its cell; a workload whose name
     * does not say its shape is left out.
     */
    public static List<WorkloadCell> workloadCells(List<HostBenchRsp.BenchCell> cells, String imageKind) {
        Map<String, Map<IoMode, Double>> byWorkload = new LinkedHashMap<>();
        for (HostBenchRsp.BenchCell c : cells) {
            if (!c.imageKind().equals(imageKind) || !WORKLOAD.matcher(c.workload()).matches()) continue;
            Map<IoMode, Double> ops = byWorkload.computeIfAbsent(c.workload(), w -> new EnumMap<>(IoMode.class));
            IoMode m = IoMode.fromWireOrNull(c.mode());
            if (m != null && c.error() == null && c.medianOps() > 0) ops.put(m, c.medianOps());
        }
        List<WorkloadCell> out = new ArrayList<>(byWorkload.size());
        byWorkload.forEach((w, ops) -> {
            Matcher m = WORKLOAD.matcher(w);
            if (!m.matches()) return;
            out.add(new WorkloadCell(w, "read".equals(m.group(1)) ? 1 : 0, Long.parseLong(m.group(2)) * 1024,
                    Long.parseLong(m.group(3)), ops));
        });
        return out;
    }

    /** How many workloads the score of this kind averages, for the sentence. */
    public static int workloadCount(List<HostBenchRsp.BenchCell> cells, String imageKind) {
        return (int) cells.stream().filter(c -> c.imageKind().equals(imageKind)).map(HostBenchRsp.BenchCell::workload)
                .distinct().count();
    }
}
