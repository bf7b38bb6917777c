package org.zstack.aio.agent.bench;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.HostBenchRsp;
import org.zstack.aio.agent.http.AgentException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Really runs qemu-img bench, tiny: a couple of seconds on a temp dir; checks results, cleanup, cancel and the lock. */
class IoBenchmarkTest {

    @TempDir
    Path dir;

    @BeforeAll
    static void qemuImg() {
        boolean present = false;
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) present |= Files.isExecutable(Path.of(d, "qemu-img"));
        if (present) return;
        if ("true".equalsIgnoreCase(System.getenv("CI"))) Assertions.fail("CI=true and qemu-img is not installed");
        Assumptions.abort("qemu-img is not installed (apt-get install qemu-utils)");
    }

    @Test
    void tinyRealBenchMeasuresEveryModeAndRemovesItsFiles() throws Exception {
        HostBenchRsp r = new IoBenchmark(new HostBenchCmd(dir.toString(), 3, List.of("raw-none"),
                List.of("randwrite-4k-qd16"), 2)).run();
        assertThat(r.complete()).as(r.note()).isTrue();
        assertThat(r.qemuImg()).startsWith("qemu-img version");
        assertThat(r.cells()).extracting(HostBenchRsp.BenchCell::mode).containsExactlyInAnyOrder("threads", "native", "io_uring");
        for (HostBenchRsp.BenchCell c : r.cells()) {
            if (c.error() != null) continue; // a kernel without io_uring: reported, not hidden
            assertThat(c.runs()).isEqualTo(2);
            assertThat(c.medianOps()).isPositive().isBetween(c.minOps(), c.maxOps());
        }
        assertThat(r.cells()).filteredOn(c -> c.mode().equals("threads")).allMatch(c -> c.error() == null);
        try (var files = Files.list(dir)) {
            assertThat(files.toList()).as("the .aio-bench dir is removed").isEmpty();
        }
    }

    @Test
    void budgetBoundsTheRunAndStaleDirsAreSwept() throws Exception {
        Path stale = Files.createDirectory(dir.resolve(BenchDirs.PREFIX + "stale"));
        Files.writeString(stale.resolve("pid"), "999999999");
        Files.write(stale.resolve("bench-qcow2-full.qcow2"), new byte[4096]);
        long t0 = System.nanoTime();
        HostBenchRsp r = new IoBenchmark(new HostBenchCmd(dir.toString(), 1, List.of("qcow2-none", "raw-none"), null, 1)).run();
        double took = (System.nanoTime() - t0) / 1e9;
        assertThat(took).isLessThan(4);
        assertThat(r.complete()).isFalse();
        assertThat(r.note()).contains("time budget");
        assertThat(Files.exists(stale)).as("stale dir of a dead process swept").isFalse();
    }

    @Test
    void cancelStopsTheRunAndAVmStartIsNeverConcurrent() throws Exception {
        HostActivity activity = new HostActivity();
        HostBench bench = new HostBench(activity);
        CompletableFuture<HostBenchRsp> running = CompletableFuture.supplyAsync(() ->
                bench.bench(new HostBenchCmd(dir.toString(), 30, List.of("raw-none"), null, 3)));
        // wait until it really runs
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!dirHasBench() && System.nanoTime() < until) Thread.sleep(20);
        assertThat(dirHasBench()).isTrue();
        assertThatThrownBy(() -> bench.bench(new HostBenchCmd(dir.toString(), 1)))
                .isInstanceOf(AgentException.class).satisfies(e -> assertThat(((AgentException) e).status()).isEqualTo(409));
        long t0 = System.nanoTime();
        String started = activity.vmStart(() -> {
            // the benchmark removes its images before it gives up the host (inside the exclusive lock); the future
            // itself completes a moment after the lock is released, so it is not what proves there was no overlap
            assertThat(dirHasBench()).as("the benchmark had stopped and cleaned up before the start ran").isFalse();
            return "started";
        });
        assertThat(started).isEqualTo("started");
        assertThat((System.nanoTime() - t0) / 1e9).as("the start waited only for the cancel").isLessThan(3);
        HostBenchRsp r = running.get(5, TimeUnit.SECONDS);
        assertThat(r.complete()).isFalse();
        assertThat(r.note()).contains("a VM start arrived");
        assertThat(dirHasBench()).isFalse();

        // and the other way round: a benchmark asked during a start is refused
        CountDownLatch inStart = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> start = CompletableFuture.supplyAsync(() -> activity.vmStart(() -> {
            inStart.countDown();
            try {
                release.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "ok";
        }));
        assertThat(inStart.await(5, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> bench.bench(new HostBenchCmd(dir.toString(), 1)))
                .isInstanceOf(AgentException.class).hasMessageContaining("starting a VM");
        release.countDown();
        assertThat(start.get(5, TimeUnit.SECONDS)).isEqualTo("ok");
        assertThat(bench.cancel(null)).containsEntry("cancelled", false);
    }

    @Test
    void refusesBadCommands() {
        assertThatThrownBy(() -> new IoBenchmark(new HostBenchCmd("relative/dir", 5)).run()).isInstanceOf(AgentException.class);
        assertThatThrownBy(() -> new IoBenchmark(new HostBenchCmd(dir.resolve("missing").toString(), 5)).run())
                .hasMessageContaining("no such directory");
        assertThatThrownBy(() -> new IoBenchmark(new HostBenchCmd(dir.toString(), 0)).run()).hasMessageContaining("seconds");
    }

    private boolean dirHasBench() {
        try (var s = Files.list(dir)) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith(BenchDirs.PREFIX));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
