package org.zstack.aio.agent.bench;

import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.HostBenchRsp;
import org.zstack.aio.agent.api.HostBenchRsp.BenchCell;
import org.zstack.aio.agent.http.AgentException;
import org.zstack.aio.agent.process.ProcessResult;
import org.zstack.aio.agent.process.ProcessRunner;
import org.zstack.aio.decision.IoMode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One benchmark of a storage path with QEMU's own block layer ({@code qemu-img bench -t none -i MODE}), for the
 * cells of {@link BenchPlan}: per cell a warm-up run, then {@code repetitions} rounds of every mode with the mode
 * order rotated; median, min and max ops/s per mode. Counts are scaled so the whole run fits its time budget;
 * when the budget runs out the cells not reached are missing and {@code complete} is false.
 * Cancellable from another thread ({@link #cancel(String)}): the running qemu-img is killed.
 */
public final class IoBenchmark {

    public static final int DEFAULT_SECONDS = 50;
    public static final int MAX_SECONDS = 600;
    public static final int DEFAULT_REPETITIONS = 3;

    private final HostBenchCmd cmd;
    private volatile boolean cancelled;
    private volatile String cancelReason;
    private volatile Thread thread;

    public IoBenchmark(HostBenchCmd cmd) {
        this.cmd = cmd;
    }

    /** Stops the run as soon as possible: kills the running qemu-img; run() answers what it measured so far. */
    public void cancel(String reason) {
        cancelReason = reason;
        cancelled = true;
        Thread t = thread;
        if (t != null) t.interrupt();
    }

    public HostBenchRsp run() {
        Path parent = validate(cmd.path());
        int budget = cmd.seconds() == null ? DEFAULT_SECONDS : cmd.seconds();
        if (budget < 1 || budget > MAX_SECONDS) {
            throw AgentException.badCommand("seconds must be between 1 and " + MAX_SECONDS + ": " + budget, "");
        }
        int reps = cmd.repetitions() == null ? DEFAULT_REPETITIONS : cmd.repetitions();
        if (reps < 1 || reps > 20) throw AgentException.badCommand("repetitions must be between 1 and 20: " + reps, "");
        List<BenchPlan.Cell> cells = BenchPlan.cells(cmd.imageKinds(), cmd.workloads());

        thread = Thread.currentThread();
        long start = System.nanoTime();
        long deadline = start + Duration.ofSeconds(budget).toNanos();
        Instant startedAt = Instant.now();
        BenchDirs.sweep(parent);
        BenchDirs.remember(parent);
        Path dir;
        try {
            dir = BenchDirs.create(parent);
        } catch (IOException e) {
            throw AgentException.badCommand("cannot create a benchmark directory under " + parent,
                    "mount the primary storage at " + parent + " on this host, or correct the primary storage's url");
        }
        BenchDirs.markInUse(dir, true);
        Thread hook = new Thread(() -> {
            cancel("the agent is stopping");
            BenchDirs.delete(dir);
        }, "aio-bench-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
        ProcessRunner runner = new ProcessRunner(Duration.ofSeconds(Math.max(30, budget)));
        List<BenchCell> out = new ArrayList<>();
        String note = null;
        try {
            String version = firstLine(runner.run(List.of("qemu-img", "--version")).stdout());
            double overhead = 0.05;   // seconds a qemu-img run costs beyond its measured time; learnt as we go
            double createCost = 0.02;
            Map<String, Path> created = new LinkedHashMap<>();
            for (int i = 0; i < cells.size(); i++) {
                BenchPlan.Cell cell = cells.get(i);
                if (cancelled) {
                    note = "cancelled: " + cancelReason;
                    break;
                }
                double left = (deadline - System.nanoTime()) / 1e9;
                if (left <= 0) {
                    note = "the time budget of " + budget + " s ran out after " + i + " of " + cells.size() + " cells";
                    break;
                }
                boolean recreate = cell.workload().write() && cell.image().allocatesOnWrite();
                Path image = created.get(cell.image().name());
                if (image == null || recreate) {
                    long t0 = System.nanoTime();
                    image = create(runner, dir, cell.image());
                    createCost = 0.5 * createCost + 0.5 * (System.nanoTime() - t0) / 1e9;
                    created.put(cell.image().name(), image);
                }
                // warm-up with threads: primes the file system and tells the rate for the counts
                Measured warm = run(runner, cell, IoMode.THREADS.wire(), cell.workload().minCount(), image);
                if (warm.error == null) overhead = 0.5 * overhead + 0.5 * Math.max(0, warm.wall - warm.seconds);
                int runsLeft = reps * BenchPlan.modesFor(0).size();
                double cellShare = (deadline - System.nanoTime()) / 1e9 / (cells.size() - i);
                double perRun = Math.max(0.01, cellShare / runsLeft - overhead - (recreate ? createCost : 0));
                int count = BenchPlan.count(cell.workload(), warm.error == null ? warm.ops : -1, perRun);

                Map<String, List<Double>> ops = new LinkedHashMap<>();
                Map<String, String> errors = new LinkedHashMap<>();
                for (int rep = 0; rep < reps && !cancelled; rep++) {
                    for (String mode : BenchPlan.modesFor(rep)) {
                        if (errors.containsKey(mode) || cancelled) continue;
                        if (recreate) {
                            image = create(runner, dir, cell.image());
                        }
                        Measured m = run(runner, cell, mode, count, image);
                        if (cancelled) break;
                        if (m.error != null) {
                            errors.put(mode, m.error);
                        } else {
                            ops.computeIfAbsent(mode, k -> new ArrayList<>()).add(m.ops);
                            overhead = 0.8 * overhead + 0.2 * Math.max(0, m.wall - m.seconds);
                        }
                    }
                }
                if (cancelled) {
                    note = "cancelled: " + cancelReason;
                    break;
                }
                for (String mode : BenchPlan.modesFor(0)) {
                    List<Double> v = ops.getOrDefault(mode, List.of());
                    String err = errors.get(mode);
                    if (v.isEmpty() && err == null) continue;
                    out.add(cell(cell, mode, v, count, err));
                }
            }
            double took = (System.nanoTime() - start) / 1e9;
            return new HostBenchRsp(parent.toString(), startedAt.toString(), took, budget, note == null, note, version,
                    out);
        } finally {
            Thread.interrupted(); // a cancel's interrupt must not leak into the caller's thread
            thread = null;
            BenchDirs.delete(dir);
            BenchDirs.markInUse(dir, false);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or will
            }
        }
    }

    private static Path validate(String path) {
        if (path == null || path.isBlank()) throw AgentException.badCommand("path is required", "a directory on the storage");
        Path p = Path.of(path);
        if (!p.isAbsolute()) throw AgentException.badCommand("path must be absolute: " + path, "");
        if (!Files.isDirectory(p)) throw AgentException.badCommand("no such directory: " + path, "");
        if (!Files.isWritable(p)) throw AgentException.badCommand("cannot write to " + path, "the benchmark needs temporary images there");
        return p;
    }

    private Path create(ProcessRunner runner, Path dir, BenchPlan.ImageKind kind) {
        Path image = dir.resolve(kind.fileName());
        try {
            Files.deleteIfExists(image);
        } catch (IOException e) {
            throw AgentException.failed("cannot remove " + image, String.valueOf(e.getMessage()), e);
        }
        ProcessResult r = runner.run(BenchPlan.createCommand(kind, image.toString()));
        if (!r.ok() && !cancelled) {
            throw AgentException.failed("qemu-img create of a " + kind.name() + " image failed", r.errorText());
        }
        return image;
    }

    private record Measured(double ops, double seconds, double wall, String error) {
    }

    private Measured run(ProcessRunner runner, BenchPlan.Cell cell, String mode, int count, Path image) {
        long t0 = System.nanoTime();
        ProcessResult r = runner.run(BenchPlan.benchCommand(cell, mode, count, image.toString()));
        double wall = (System.nanoTime() - t0) / 1e9;
        if (!r.ok()) return new Measured(0, 0, wall, firstLine(r.errorText()));
        try {
            QemuImgBenchOutput.Run run = QemuImgBenchOutput.parse(r.stdout());
            return new Measured(run.opsPerSecond(), run.seconds(), wall, null);
        } catch (IllegalArgumentException e) {
            return new Measured(0, 0, wall, e.getMessage());
        }
    }

    static BenchCell cell(BenchPlan.Cell cell, String mode, List<Double> ops, int count, String error) {
        if (ops.isEmpty()) return new BenchCell(cell.image().name(), cell.workload().name(), mode, 0, 0, 0, 0, count, error);
        List<Double> s = new ArrayList<>(ops);
        s.sort(null);
        int n = s.size();
        double median = n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
        return new BenchCell(cell.image().name(), cell.workload().name(), mode, round(median), round(s.get(0)),
                round(s.get(n - 1)), n, count, error);
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    private static String firstLine(String s) {
        if (s == null) return null;
        String t = s.strip();
        int nl = t.indexOf('\n');
        return nl < 0 ? t : t.substring(0, nl);
    }
}
