package org.zstack.aio.plugin.bench;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.MeasureSettings;
import org.zstack.aio.plugin.ShippedFiles;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The plan a host's facts and the settings give, and the job stepping through it, fed with the script's lines. */
class BenchJobTest {

    static final DiskIoModes IO_MODES = new DiskIoModes(IoModeRulesLoader.fromClasspath());
    static final MeasureSettings SHIPPED = ShippedFiles.measureSettings();
    static final ImageKind FULL = ImageKind.of("qcow2", "full");

    static HostIoFacts capable(String uuid) {
        return HostIoFacts.builder(uuid).kernel(Version.parse("6.1.0")).ioUringDisabled(0).qemu(Version.parse("8.2.0"))
                .qemuIoUring(true, null).libvirt(Version.parse("9.0.0")).build();
    }

    /** A clock the test moves. */
    static final class Hand implements BenchJob.Clock {
        long now = 1_000;

        public long nanos() { return now; }

        void seconds(double s) { now += (long) (s * 1e9); }
    }

    @Test
    void theShippedPlanRunsEveryAllowedModeAtDepth1And32ReadAndWriteWithinTheBudget() {
        BenchPlan plan = BenchPlan.of(IO_MODES, capable("h1"), FULL, SHIPPED);
        assertThat(SHIPPED.depths()).containsExactly(1, 32);
        assertThat(SHIPPED.budgetSeconds()).isEqualTo(60);
        assertThat(plan.runs()).extracting(BenchRun::toString).containsExactly(
                "threads randwrite-4k-qd1", "native randwrite-4k-qd1", "io_uring randwrite-4k-qd1",
                "threads randwrite-4k-qd32", "native randwrite-4k-qd32", "io_uring randwrite-4k-qd32",
                "threads randread-4k-qd1", "native randread-4k-qd1", "io_uring randread-4k-qd1",
                "threads randread-4k-qd32", "native randread-4k-qd32", "io_uring randread-4k-qd32");
        assertThat(plan.excluded()).isEmpty();
        // each run's bound plus its second of slack, times the runs, fits the budget
        int seconds = plan.runs().get(0).seconds();
        assertThat(seconds).isEqualTo(4);
        assertThat((seconds + 1) * plan.runs().size()).isLessThanOrEqualTo(60);
        assertThat(plan.runs()).allSatisfy(r -> assertThat(r.seconds()).isEqualTo(seconds));
    }

    @Test
    void aModeTheHostCannotRunIsNotRunAndSaysWhyAndASparseKindIsOnlyWritten() {
        HostIoFacts off = HostIoFacts.builder("h2").kernel(Version.parse("6.1.0")).ioUringDisabled(2).qemu(Version.parse("8.2.0"))
                .qemuIoUring(true, null).libvirt(Version.parse("9.0.0")).build();
        BenchPlan plan = BenchPlan.of(IO_MODES, off, ImageKind.of("qcow2", "metadata"), SHIPPED);
        assertThat(plan.runs()).extracting(BenchRun::toString).containsExactly("threads randwrite-4k-qd1",
                "native randwrite-4k-qd1", "threads randwrite-4k-qd32", "native randwrite-4k-qd32");
        assertThat(plan.excluded()).containsOnlyKeys(IoMode.IO_URING);
        assertThat(plan.excluded().get(IoMode.IO_URING)).startsWith("io_uring is not run: check io_uring-sysctl failed: ");
        assertThat(plan.runs().get(0).seconds()).isEqualTo(9); // 60 s / 4 runs: the per-run bound caps it
        // a host never probed: what the core's host checks allow without facts (io_uring needs them, native has no
        // host check of its own), and io_uring says the facts are unknown
        BenchPlan unknown = BenchPlan.of(IO_MODES, null, FULL, SHIPPED);
        List<IoMode> allowed = new ArrayList<>();
        for (IoMode m : IoMode.values()) if (IO_MODES.hostCheck(m, null).passed()) allowed.add(m);
        assertThat(allowed).containsExactly(IoMode.THREADS, IoMode.NATIVE);
        assertThat(unknown.runs()).extracting(BenchRun::mode).containsOnlyElementsOf(allowed).contains(IoMode.THREADS, IoMode.NATIVE);
        assertThat(unknown.excluded()).containsOnlyKeys(IoMode.IO_URING);
    }

    @Test
    void aBudgetTooSmallForOneRunEachIsRefusedWithItsKey() {
        assertThatThrownBy(() -> BenchPlan.of(IO_MODES, capable("h1"), FULL, ShippedFiles.measureSettings("bench.budgetSeconds", "20")))
                .hasMessage("a budget of 20 s cannot hold 12 runs of at least 2 s each; raise bench.budgetSeconds");
        assertThatThrownBy(() -> ShippedFiles.measureSettings("bench.runSecondsMax", "10"))
                .hasMessage("measure.properties: bench.runSecondsMax must be a whole number from 1 to 9, not '10'");
        assertThatThrownBy(() -> ShippedFiles.measureSettings("bench.depths", "1,x"))
                .hasMessage("measure.properties: bench.depths must be a whole number from 1 to 1024, not 'x'");
    }

    @Test
    void theJobStepsRunByRunAndEndsComplete() {
        BenchJob job = new BenchJob(BenchPlan.of(IO_MODES, capable("h1"), FULL, SHIPPED), new Hand());
        List<String> sent = new ArrayList<>();
        for (BenchRun r = job.next(); r != null; r = job.next()) {
            sent.add(r.toString());
            assertThatThrownBy(job::next).hasMessageContaining("is in flight");
            job.record(r, "Last login: today\n" + line(r, 1000), "", 0);
            assertThat(job.done()).isEqualTo(sent.size());
        }
        assertThat(sent).hasSize(12);
        assertThat(job.outcome()).isEqualTo(BenchOutcome.COMPLETE);
        assertThat(job.note()).isNull();
        assertThat(job.result("h1", "ps1", "t").lines()).hasSize(12);
    }

    @Test
    void theBudgetStopsTheJobBeforeARunThatCouldEndPastIt() {
        Hand clock = new Hand();
        BenchJob job = new BenchJob(BenchPlan.of(IO_MODES, capable("h1"), FULL, SHIPPED), clock);
        for (int i = 0; i < 5; i++) {
            BenchRun r = job.next();
            clock.seconds(9.5); // slow storage: each run takes its bound and more
            job.record(r, line(r, 10), null, 0);
        }
        // 47.5 s spent: a 4 s run (+1 s) still fits 60 s, the next does not
        BenchRun sixth = job.next();
        assertThat(sixth).isNotNull();
        clock.seconds(9.5);
        job.record(sixth, line(sixth, 10), null, 0);
        assertThat(job.next()).isNull();
        assertThat(job.outcome()).isEqualTo(BenchOutcome.BUDGET_SPENT);
        assertThat(job.note()).isEqualTo("the budget of 60 s ran out after 6 of 12 runs");
        StorageBenchmark b = job.result("h1", "ps1", "t");
        assertThat(b.performance().cells()).extracting(c -> c.name()).containsExactly("randwrite-4k-qd1", "randwrite-4k-qd32");
    }

    @Test
    void aCancelStopsBeforeTheNextRunAndKeepsTheRunInFlight() {
        BenchJob job = new BenchJob(BenchPlan.of(IO_MODES, capable("h1"), FULL, SHIPPED), new Hand());
        BenchRun first = job.next();
        job.record(first, line(first, 100), null, 0);
        BenchRun second = job.next();
        assertThat(job.cancel("admin asked")).isTrue();
        assertThat(job.cancel("twice")).isFalse();
        assertThatThrownBy(() -> job.result("h1", "ps1", "t")).hasMessage("the benchmark has not ended");
        job.record(second, "bench mode=native depth=1 rw=write refused=no-room full", null, 3);
        assertThat(job.outcome()).as("the first end stands").isEqualTo(BenchOutcome.CANCELLED);
        assertThat(job.note()).isEqualTo("cancelled after 1 of 12 runs: admin asked");
        assertThat(job.next()).isNull();
        assertThat(job.result("h1", "ps1", "t").lines()).hasSize(2);
    }

    @Test
    void aModeThatFailsOnTheStorageIsRecordedAndNotRunAgain() {
        BenchJob job = new BenchJob(BenchPlan.of(IO_MODES, capable("h1"), FULL, SHIPPED), new Hand());
        List<String> sent = new ArrayList<>();
        for (BenchRun r = job.next(); r != null; r = job.next()) {
            sent.add(r.toString());
            String out = r.mode() == IoMode.NATIVE
                    ? "bench mode=native depth=" + r.depth() + " rw=" + r.rw() + " failed=qemu-img bench -i native failed: Invalid argument"
                    : line(r, 1000);
            job.record(r, out, null, r.mode() == IoMode.NATIVE ? 1 : 0);
        }
        assertThat(sent).hasSize(9).contains("native randwrite-4k-qd1").doesNotContain("native randwrite-4k-qd32");
        assertThat(job.outcome()).isEqualTo(BenchOutcome.COMPLETE);
        assertThat(job.done()).isEqualTo(12);
        assertThat(job.note()).isEqualTo("every run was made; 1 mode(s) failed on this storage and were not run further");
        StorageBenchmark b = job.result("h1", "ps1", "t");
        assertThat(b.performance().scores()).containsOnlyKeys(IoMode.THREADS, IoMode.IO_URING);
    }

    @Test
    void anAnswerThatIsNoBenchLineOrAnotherRunsFailsTheJobWithWhy() {
        BenchJob a = new BenchJob(BenchPlan.of(IO_MODES, capable("h1"), FULL, SHIPPED), new Hand());
        BenchRun r = a.next();
        a.record(r, "", "sh: 1: base64: not found\n", 127);
        assertThat(a.outcome()).isEqualTo(BenchOutcome.FAILED);
        assertThat(a.note()).isEqualTo("the host printed no bench line for threads randwrite-4k-qd1 (exit code 127): sh: 1: base64: not found");
        assertThat(a.result("h", "p", "t").performance()).isNull();

        BenchJob b = new BenchJob(BenchPlan.of(IO_MODES, capable("h1"), FULL, SHIPPED), new Hand());
        BenchRun r2 = b.next();
        b.record(r2, "bench mode=native depth=32 rw=read iops=5", null, 0);
        assertThat(b.note()).isEqualTo("the host answered 'bench mode=native depth=32 rw=read iops=5' to run threads randwrite-4k-qd1");

        BenchJob c = new BenchJob(BenchPlan.of(IO_MODES, capable("h1"), FULL, SHIPPED), new Hand());
        BenchRun r3 = c.next();
        c.unreachable(r3, "unable to connect to KVM[ip:10.0.0.1]");
        assertThat(c.outcome()).isEqualTo(BenchOutcome.FAILED);
        assertThat(c.note()).isEqualTo("the host could not be asked for run threads randwrite-4k-qd1: unable to connect to KVM[ip:10.0.0.1]");
        assertThatThrownBy(() -> c.record(r3, "", null, 0)).hasMessageContaining("is not the one in flight");
    }

    @Test
    void hostBenchLinesAreReadExactlyAndAnythingElseIsNamed() {
        BenchRun r = new BenchRun(IoMode.IO_URING, 32, false, 4);
        BenchLine ok = BenchLine.parse("bench mode=io_uring depth=32 rw=write iops=105000\n");
        assertThat(ok.kind()).isEqualTo(BenchLine.Kind.MEASURED);
        assertThat(ok.answers(r)).isTrue();
        assertThat(ok.iops()).isEqualTo(105000);
        assertThat(BenchLine.parse(ok.text())).isEqualTo(ok);
        BenchLine refused = BenchLine.parse("bench mode=io_uring depth=32 rw=write refused=no-room /ps has 3 MiB free; so nothing was written.");
        assertThat(refused.kind()).isEqualTo(BenchLine.Kind.REFUSED);
        assertThat(refused.code()).isEqualTo("no-room");
        assertThat(refused.sentence()).isEqualTo("/ps has 3 MiB free; so nothing was written.");
        assertThat(BenchLine.parse(refused.text())).isEqualTo(refused);
        BenchLine skipped = BenchLine.skipped(IoMode.NATIVE, "native is not run: check x failed: y");
        assertThat(BenchLine.parse(skipped.text())).isEqualTo(skipped);
        assertThat(BenchLine.parse("no line here\n")).isNull();
        String[][] bad = {
                {"bench mode=fast depth=1 rw=read iops=1", "mode 'fast' is none of threads, native, io_uring"},
                {"bench mode=native depth=0 rw=read iops=1", "depth '0' is not a whole number >= 1"},
                {"bench mode=native depth=1 rw=both iops=1", "rw 'both' is neither read nor write"},
                {"bench mode=native depth=1 rw=read iops=-5", "iops '-5' is not a whole number >= 1"},
                {"bench mode=native depth=1 rw=read iops=5 extra=1", "iops= must come last, after mode, depth and rw"},
                {"bench mode=native depth=1 rw=read", "no iops=, refused= or failed="},
                {"bench mode=native speed=1", "unknown field 'speed'"},
        };
        for (String[] b : bad) {
            BenchLine l = BenchLine.parse(b[0]);
            assertThat(l.kind()).isEqualTo(BenchLine.Kind.FAILED);
            assertThat(l.mode()).isNull();
            assertThat(l.sentence()).isEqualTo("the host printed a bench line this version cannot read (" + b[1] + "): " + b[0]);
        }
    }

    static String line(BenchRun r, long iops) {
        return "bench mode=" + r.mode().wire() + " depth=" + r.depth() + " rw=" + r.rw() + " iops=" + iops + "\n";
    }

    static {
        // the hand clock counts in nanoseconds, as System::nanoTime
        assertThat(TimeUnit.SECONDS.toNanos(1)).isEqualTo(1_000_000_000L);
    }
}
