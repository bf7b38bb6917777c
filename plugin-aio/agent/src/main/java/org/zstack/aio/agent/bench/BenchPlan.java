package org.zstack.aio.agent.bench;

import org.zstack.aio.agent.api.BenchScores;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a benchmark runs: the image kinds × workloads, and for one run the {@code qemu-img bench} arguments.
 * Pure: no I/O.
 */
public final class BenchPlan {

    /** Temporary images are this big: room for every request of a run to land on a distinct block. */
    public static final long IMAGE_BYTES = 256L << 20;

    /** Step between 4K random requests: 4099 × 4K, 4099 prime, so offsets walk every 4K block before repeating. */
    public static final long RANDOM_STEP = 4096L * 4099;

    /** An image kind: format and qemu-img preallocation; sparse ones are recreated before each write run. */
    public record ImageKind(String name, String format, String preallocation) {
        public static ImageKind of(String name) {
            if (!BenchScores.IMAGE_KINDS.contains(name)) {
                throw new IllegalArgumentException("unknown image kind '" + name + "', known: " + BenchScores.IMAGE_KINDS);
            }
            String[] p = name.split("-", 2);
            return new ImageKind(name, p[0], "none".equals(p[1]) ? "off" : p[1]);
        }

        /** Writes allocate space (or convert unwritten extents) on a fresh image of this kind. */
        public boolean allocatesOnWrite() {
            return !"full".equals(preallocation);
        }

        public String fileName() {
            return "bench-" + name + "." + format;
        }
    }

    /** A workload: read or write, request size, queue depth, step between requests. */
    public record Workload(String name, boolean write, int blockSize, int depth, long step) {
        public static Workload of(String name) {
            String[] p = name.split("-");
            if (p.length != 3 || !BenchScores.WORKLOADS.contains(name)) {
                throw new IllegalArgumentException("unknown workload '" + name + "', known: " + BenchScores.WORKLOADS);
            }
            boolean write = p[0].endsWith("write");
            boolean random = p[0].startsWith("rand");
            int bs = Integer.parseInt(p[1].replace("k", "")) * 1024;
            int depth = Integer.parseInt(p[2].replace("qd", ""));
            return new Workload(name, write, bs, depth, random ? RANDOM_STEP : bs);
        }

        /** Requests per run never wrap around the image (each write lands on a block not yet written in this run). */
        public int maxCount() {
            return (int) Math.min(200_000, IMAGE_BYTES / blockSize - 1);
        }

        /** Ops/s a run of this workload is expected to reach at least, used for the first count. */
        public int minCount() {
            return depth == 1 ? 64 : 256;
        }
    }

    /** One cell of the matrix. */
    public record Cell(ImageKind image, Workload workload) {
    }

    private BenchPlan() {
    }

    /** The cells for these kinds and workloads (null or empty: all); reads only on fully written kinds. */
    public static List<Cell> cells(List<String> kinds, List<String> workloads) {
        List<String> ks = kinds == null || kinds.isEmpty() ? BenchScores.IMAGE_KINDS : kinds;
        List<String> ws = workloads == null || workloads.isEmpty() ? BenchScores.WORKLOADS : workloads;
        List<Cell> out = new ArrayList<>();
        for (String k : ks) {
            ImageKind kind = ImageKind.of(k);
            for (String w : ws) {
                Workload wl = Workload.of(w);
                if (!wl.write() && !BenchScores.measuresReads(k)) continue;
                out.add(new Cell(kind, wl));
            }
        }
        return out;
    }

    /** Modes of repetition {@code rep}, rotated so that no mode always runs first (warm) or last. */
    public static List<String> modesFor(int rep) {
        List<String> m = BenchScores.MODES;
        List<String> out = new ArrayList<>(m.size());
        for (int i = 0; i < m.size(); i++) out.add(m.get((i + rep) % m.size()));
        return out;
    }

    /** {@code qemu-img bench} for one run; {@code -t none} (O_DIRECT), as the disks run with cache none. */
    public static List<String> benchCommand(Cell cell, String mode, int count, String image) {
        List<String> cmd = new ArrayList<>(List.of("qemu-img", "bench", "-f", cell.image().format(), "-t", "none",
                "-i", mode));
        if (cell.workload().write()) cmd.add("-w");
        cmd.addAll(List.of("-c", Integer.toString(count), "-d", Integer.toString(cell.workload().depth()),
                "-s", Integer.toString(cell.workload().blockSize()), "-S", Long.toString(cell.workload().step()), image));
        return cmd;
    }

    /** {@code qemu-img create} for a kind. */
    public static List<String> createCommand(ImageKind kind, String image) {
        return List.of("qemu-img", "create", "-q", "-f", kind.format(), "-o", "preallocation=" + kind.preallocation(),
                image, Long.toString(IMAGE_BYTES));
    }

    /**
     * Requests for the next run: the rate seen so far × the seconds a run may take, within the workload's bounds.
     *
     * @param opsPerSecond best estimate of the rate (from the warm-up run), ≤ 0 when unknown
     */
    public static int count(Workload w, double opsPerSecond, double runSeconds) {
        if (opsPerSecond <= 0) return w.minCount();
        long c = Math.round(opsPerSecond * runSeconds);
        return (int) Math.max(w.minCount(), Math.min(w.maxCount(), c));
    }

    static String pct(double v) {
        return String.format(Locale.ROOT, "%.0f%%", v * 100);
    }
}
