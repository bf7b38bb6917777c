package org.zstack.aio.plugin.bench;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.WorkloadCell;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.HostIoProbe;
import org.zstack.aio.plugin.HostScript;
import org.zstack.aio.plugin.HostShell;
import org.zstack.aio.plugin.MeasureSettings;
import org.zstack.aio.plugin.ShippedFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * conf/aio/host-bench.sh run for real on this machine: against a scratch folder with the real qemu-img (QEMU 7.2
 * here), through ZStack's own way of sending a script (KvmRunShellMsg's unquoted here-document), driven run by run by
 * the core's {@link BenchJob}; and against a qemu-img that fails or hangs, where the scratch file must still go.
 */
class HostBenchScriptTest {

    private static final DiskIoModes IO_MODES = new DiskIoModes(IoModeRulesLoader.fromClasspath());
    private static final String SCRIPT = ShippedFiles.read(ShippedFiles.BENCH_SCRIPT);

    @BeforeAll
    static void qemuImgIsHere() throws Exception {
        boolean has = HostShell.sh("command -v qemu-img", null).exit() == 0;
        // bin/aio-test installs QEMU before the tests; a machine without it may skip, CI may not
        if (!"true".equals(System.getenv("CI"))) assumeThat(has).as("qemu-img on PATH").isTrue();
        assertThat(has).as("qemu-img on PATH (CI=true: no skip)").isTrue();
    }

    /** This host's facts, as the ZStack module gathers them: the shipped probe, run here. */
    private static HostIoFacts probedHere() throws Exception {
        HostShell.Result r = HostShell.sh(ShippedFiles.read(ShippedFiles.CONF.resolve("host-probe.sh")), null);
        return HostIoProbe.read("here", r.stdout(), null, null, null).facts();
    }

    @Test
    void aWholeBenchmarkRunsHereRunByRunThroughZStacksShellAndLeavesNothing(@TempDir Path storage, @TempDir Path tmp) throws Exception {
        // 26 s for 12 runs: 1 s each (the shipped 60 s gives 4 s each; the runs are the same, only longer)
        MeasureSettings settings = ShippedFiles.measureSettings("bench.budgetSeconds", "26");
        HostIoFacts host = probedHere();
        ImageKind kind = ImageKind.of("qcow2", "full");
        BenchPlan plan = BenchPlan.of(IO_MODES, host, kind, settings);
        BenchScript script = new BenchScript(SCRIPT, settings);
        BenchJob job = new BenchJob(plan, System::nanoTime);
        for (BenchRun run = job.next(); run != null; run = job.next()) {
            HostScript.Call call = script.forRun(run, storage.toString(), kind);
            HostShell.Result r = HostShell.zstackRunShell(call.heredocSafe(), tmp, null);
            job.record(run, r.stdout(), r.stderr(), r.exit());
            assertThat(r.stdout().trim()).as("exactly the one documented line").matches(
                    "bench mode=" + run.mode().wire() + " depth=" + run.depth() + " rw=" + run.rw() + " iops=[1-9][0-9]*");
            assertThat(scratchFiles(storage)).as("no scratch file after run %s", run).isEmpty();
        }
        assertThat(job.outcome()).as(job.note()).isEqualTo(BenchOutcome.COMPLETE);
        assertThat(job.done()).isEqualTo(job.total());
        List<IoMode> allowed = plan.runs().stream().map(BenchRun::mode).distinct().toList();
        assertThat(allowed).contains(IoMode.THREADS);
        assertThat(plan.runs()).hasSize(4 * allowed.size());
        for (IoMode m : IoMode.values()) assertThat(allowed.contains(m)).as(m + ": run or said why not").isNotEqualTo(plan.excluded().containsKey(m));

        StorageBenchmark result = job.result("here", "ps1", "2026-11-27T10:00:00.000Z");
        ModePerformance perf = result.performance();
        assertThat(perf.cells()).extracting(WorkloadCell::name)
                .containsExactly("randwrite-4k-qd1", "randwrite-4k-qd32", "randread-4k-qd1", "randread-4k-qd32");
        for (WorkloadCell c : perf.cells()) assertThat(c.ops().keySet()).containsExactlyInAnyOrderElementsOf(allowed);
        assertThat(perf.score(IoMode.THREADS)).isEqualTo(1.0);
        assertThat(perf.scores().keySet()).containsExactlyInAnyOrderElementsOf(allowed);
        // stored and read back, it weighs the same
        StorageBenchmark back = StorageBenchmark.restore("here", "ps1", "qcow2-full", result.takenAt(), "COMPLETE", null,
                result.linesText());
        assertThat(back.performance()).isEqualTo(perf);
        try (Stream<Path> s = Files.list(storage)) {
            assertThat(s.toList()).as("the storage is left as it was").isEmpty();
        }
    }

    @Test
    void withoutRoomNothingIsWrittenAndTheJobIsRefused(@TempDir Path storage) throws Exception {
        long freeMiB = Files.getFileStore(storage).getUsableSpace() >> 20;
        MeasureSettings settings = ShippedFiles.measureSettings("bench.reserveMiB", Long.toString(freeMiB + 10_000));
        BenchPlan plan = BenchPlan.of(IO_MODES, null, ImageKind.of("qcow2", "full"), settings);
        BenchJob job = new BenchJob(plan, System::nanoTime);
        BenchRun run = job.next();
        HostShell.Result r = HostShell.sh(new BenchScript(SCRIPT, settings).forRun(run, storage.toString(), plan.kind()).text(), null);
        assertThat(r.exit()).isEqualTo(3);
        job.record(run, r.stdout(), r.stderr(), r.exit());
        assertThat(job.outcome()).isEqualTo(BenchOutcome.REFUSED);
        assertThat(job.note()).startsWith(storage + " has ").contains(" MiB free; the benchmark needs " + (freeMiB + 10_000 + 64) + " MiB")
                .endsWith("so nothing was written.");
        assertThat(job.next()).isNull();
        assertThat(job.result("h", "ps", "t").performance()).isNull();
        try (Stream<Path> s = Files.list(storage)) {
            assertThat(s.toList()).isEmpty();
        }
    }

    @Test
    void aRunThatFailsSaysWhyAndTakesItsScratchFileWithIt(@TempDir Path storage, @TempDir Path bin) throws Exception {
        Map<String, String> env = fakeQemuImg(bin, "echo \"qemu-img: Could not open '$img': Invalid argument\" >&2; exit 1");
        HostShell.Result r = HostShell.sh(call(storage, "native", "32", "write", "3").text(), env);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stdout()).startsWith("bench mode=native depth=32 rw=write failed=qemu-img bench -i native failed: qemu-img: Could not open '"
                + storage + "/.aio-bench.");
        assertThat(fakeLog(bin)).contains("create", "bench");
        assertThat(scratchFiles(storage)).isEmpty();
    }

    @Test
    void aQemuThatFallsBackToItsThreadPoolIsNoMeasureOfTheMode(@TempDir Path storage, @TempDir Path bin) throws Exception {
        Map<String, String> env = fakeQemuImg(bin, "echo 'qemu-img: warning: Unable to use linux io_uring, falling back to thread pool' >&2;"
                                                   + " echo 'Run completed in 0.500 seconds.'");
        HostShell.Result r = HostShell.sh(call(storage, "io_uring", "1", "read", "3").text(), env);
        assertThat(r.stdout()).isEqualTo("bench mode=io_uring depth=1 rw=read failed=QEMU could not use io_uring here and fell back to"
                + " its thread pool: qemu-img: warning: Unable to use linux io_uring, falling back to thread pool\n");
        assertThat(scratchFiles(storage)).isEmpty();
    }

    @Test
    void aHungQemuImgIsKilledAtTheRunsBoundAndItsScratchFileGoes(@TempDir Path storage, @TempDir Path bin) throws Exception {
        Map<String, String> env = fakeQemuImg(bin, "sleep 60");
        HostShell.Result r = HostShell.sh(call(storage, "threads", "1", "write", "1").text(), env);
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.stdout()).isEqualTo("bench mode=threads depth=1 rw=write failed=qemu-img bench -i threads did not finish within 1 s.\n");
        assertThat(scratchFiles(storage)).isEmpty();
    }

    /** What a cancel on the host looks like (ZStack's own timeout, an admin's kill): TERM, and the file still goes. */
    @Test
    void aTerminatedRunRemovesItsScratchFile(@TempDir Path storage, @TempDir Path bin) throws Exception {
        Map<String, String> env = fakeQemuImg(bin, "sleep 60");
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", call(storage, "threads", "1", "write", "3").text());
        pb.environment().putAll(env);
        Process p = pb.start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (scratchFiles(storage).isEmpty() && System.nanoTime() < until) Thread.sleep(20);
        assertThat(scratchFiles(storage)).as("the run created its scratch file").hasSize(1);
        p.destroy(); // SIGTERM
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(143);
        assertThat(scratchFiles(storage)).isEmpty();
    }

    @Test
    void aScratchFileLeftByAKilledCallIsSweptOnceStaleAndAnotherHostsRunningOneIsKept(@TempDir Path storage) throws Exception {
        Path stale = Files.writeString(storage.resolve(".aio-bench.OLD123"), "x");
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(10, ChronoUnit.MINUTES)));
        Path running = Files.writeString(storage.resolve(".aio-bench.NEW456"), "x");
        Path mine = Files.writeString(storage.resolve("vol-1.qcow2"), "x");
        HostShell.Result r = HostShell.sh(call(storage, "threads", "1", "write", "1").text(), null);
        assertThat(r.stdout()).startsWith("bench mode=threads depth=1 rw=write iops=");
        assertThat(stale).doesNotExist();
        assertThat(running).exists();
        assertThat(mine).exists();
    }

    @Test
    void badArgumentsAreRefusedBeforeAnythingIsWritten(@TempDir Path storage) throws Exception {
        String[][] cases = {
                {"zero", "32", "write", "3", "MODE must be threads, native or io_uring."},
                {"native", "0", "write", "3", "DEPTH must be a whole number from 1 to 1024."},
                {"native", "32", "append", "3", "RW must be read or write."},
                {"native", "32", "write", "10", "SECONDS must be a whole number from 1 to 9."},
        };
        for (String[] c : cases) {
            HostShell.Result r = HostShell.sh(call(storage, c[0], c[1], c[2], c[3]).text(), null);
            assertThat(r.exit()).isEqualTo(2);
            assertThat(r.stdout()).isEqualTo("bench refused=bad-arguments " + c[4] + "\n");
        }
        HostShell.Result missing = HostShell.sh(HostScript.of(BenchScript.RESOURCE, SCRIPT).with(storage.toString(), "threads").text(), null);
        assertThat(missing.stdout()).startsWith("bench refused=bad-arguments 9 arguments expected");
        HostShell.Result noDir = HostShell.sh(HostScript.of(BenchScript.RESOURCE, SCRIPT).with(storage.resolve("gone").toString(), "threads", "1", "read", "1",
                "qcow2", "full", "64", "0").text(), null);
        assertThat(noDir.stdout()).isEqualTo("bench mode=threads depth=1 rw=read failed=" + storage.resolve("gone")
                + " is not a directory on this host: is the primary storage mounted here?\n");
        try (Stream<Path> s = Files.list(storage)) {
            assertThat(s.toList()).isEmpty();
        }
    }

    /**
     * Why the platform sends {@link HostScript.Call#heredocSafe()}: pasted as it is into KvmRunShellMsg's unquoted
     * here-document, the script's {@code $1} and {@code $(...)} are expanded while the file is written, so the script
     * that runs has lost its arguments.
     */
    @Test
    void zstacksHereDocumentBreaksThePlainTextAndNotTheSafeForm(@TempDir Path storage, @TempDir Path tmp) throws Exception {
        HostScript.Call c = call(storage, "threads", "1", "write", "1");
        HostShell.Result plain = HostShell.zstackRunShell(c.text(), tmp, null);
        assertThat(plain.stdout()).doesNotStartWith("bench mode=threads depth=1 rw=write iops=");
        HostShell.Result safe = HostShell.zstackRunShell(c.heredocSafe(), tmp, null);
        assertThat(safe.stdout()).startsWith("bench mode=threads depth=1 rw=write iops=");
        assertThat(scratchFiles(storage)).isEmpty();
    }

    private static HostScript.Call call(Path storage, String mode, String depth, String rw, String seconds) {
        return HostScript.of(BenchScript.RESOURCE, SCRIPT).with(storage.toString(), mode, depth, rw, seconds, "qcow2", "full", "64", "0");
    }

    /** A qemu-img whose create makes the file and whose bench runs {@code bench}; every call logged. */
    private static Map<String, String> fakeQemuImg(Path bin, String bench) throws IOException {
        Path fake = bin.resolve("qemu-img");
        Files.writeString(fake, "#!/bin/sh\n"
                + "echo \"$*\" >> " + bin.resolve("calls.log") + "\n"
                + "eval img=\\${$#}\n"
                + "case \"$1\" in\n"
                + "  create) eval img=\\${$(($# - 1))}; : > \"$img\" ;;\n"
                + "  bench) " + bench + " ;;\n"
                + "esac\n");
        Files.setPosixFilePermissions(fake, PosixFilePermissions.fromString("rwxr-xr-x"));
        return Map.of("PATH", bin + ":" + System.getenv("PATH"));
    }

    private static String fakeLog(Path bin) throws IOException {
        return Files.readString(bin.resolve("calls.log"), StandardCharsets.UTF_8);
    }

    private static List<Path> scratchFiles(Path storage) throws IOException {
        try (Stream<Path> s = Files.list(storage)) {
            return s.filter(p -> p.getFileName().toString().startsWith(".aio-bench.")).toList();
        }
    }
}
