package org.zstack.aio.plugin.bench;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.WorkloadCell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** Stored lines folded into what auto weighs, and read back. */
class StorageBenchmarkTest {

    private static StorageBenchmark of(String outcome, String lines) {
        return StorageBenchmark.restore("h1", "ps1", "qcow2-full", "2026-11-27T09:00:00.000Z", outcome, null, lines);
    }

    @Test
    void eachModesScoreIsTheGeometricMeanOfItsRatiosToThreadsOverTheWorkloads() {
        ModePerformance p = of("COMPLETE", String.join("\n",
                "bench mode=threads depth=1 rw=write iops=1000",
                "bench mode=native depth=1 rw=write iops=2000",
                "bench mode=threads depth=32 rw=write iops=4000",
                "bench mode=native depth=32 rw=write iops=2000",
                "bench mode=io_uring depth=32 rw=write iops=8000")).performance();
        assertThat(p.score(IoMode.THREADS)).isEqualTo(1.0);
        assertThat(p.score(IoMode.NATIVE)).isCloseTo(Math.sqrt(2 * 0.5), within(1e-12));
        assertThat(p.score(IoMode.IO_URING)).as("not measured at depth 1: no score").isNull();
        WorkloadCell deep = p.cells().get(1);
        assertThat(deep.name()).isEqualTo("randwrite-4k-qd32");
        assertThat(deep.readFraction()).isZero();
        assertThat(deep.queueDepth()).isEqualTo(32);
        assertThat(deep.blockBytes()).isEqualTo(4096);
        assertThat(deep.ops(IoMode.IO_URING)).isEqualTo(8000.0);
        assertThat(p.takenAt()).isEqualTo("2026-11-27T09:00:00.000Z");
        assertThat(p.metric()).isEqualTo("geomean of 2 qemu-img bench workloads (randwrite-4k-qd1, randwrite-4k-qd32) on"
                + " qcow2-full of this storage, taken 2026-11-27T09:00:00.000Z");
    }

    @Test
    void aModeThatFailedOnTheStorageGetsNoScoreAndARunMadeTwiceCountsItsLater() {
        ModePerformance p = of("COMPLETE", String.join("\n",
                "bench mode=threads depth=1 rw=write iops=1000",
                "bench mode=threads depth=1 rw=write iops=3000",
                "bench mode=io_uring depth=1 rw=write iops=1500",
                "bench mode=native depth=1 rw=write failed=qemu-img bench -i native failed: Invalid argument",
                "bench mode=native skipped=native is not run: check x failed: y")).performance();
        assertThat(p.scores()).containsOnlyKeys(IoMode.THREADS, IoMode.IO_URING);
        assertThat(p.score(IoMode.IO_URING)).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void nothingIsWeighedWithoutThreadsOrFromARefusedOrFailedBenchmark() {
        assertThat(of("COMPLETE", "bench mode=native depth=1 rw=write iops=2000").performance()).isNull();
        assertThat(of("COMPLETE", "").performance()).isNull();
        String good = "bench mode=threads depth=1 rw=write iops=1000\nbench mode=native depth=1 rw=write iops=2000\n";
        assertThat(of("CANCELLED", good).performance()).isNotNull();
        assertThat(of("BUDGET_SPENT", good).performance()).isNotNull();
        assertThat(of("REFUSED", good).performance()).isNull();
        assertThat(of("FAILED", good).performance()).isNull();
    }

    @Test
    void theStoredLinesReadBackAsTheyWereAndAnUnreadableOneWeighsNothing() {
        StorageBenchmark b = of("COMPLETE", "bench mode=threads depth=1 rw=write iops=1000\nbench mode=native depth=1 rw=write iops=2000\n"
                + "bench mode=warp depth=1 rw=write iops=9\n");
        assertThat(b.lines()).hasSize(3);
        assertThat(b.lines().get(2).kind()).isEqualTo(BenchLine.Kind.FAILED);
        assertThat(b.performance().scores()).containsOnlyKeys(IoMode.THREADS, IoMode.NATIVE);
        StorageBenchmark back = of("COMPLETE", b.linesText());
        assertThat(back.lines()).isEqualTo(b.lines());
        assertThat(back.performance()).isEqualTo(b.performance());
        assertThatThrownBy(() -> StorageBenchmark.restore("h", "p", "qcow2-sparse", "t", "COMPLETE", null, ""))
                .hasMessage("preallocation must be none, metadata, falloc or full, not 'sparse'");
        assertThatThrownBy(() -> StorageBenchmark.restore("h", "p", "qcow2-full", "t", "DONE", null, ""))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void imageKindsAreNamedAsTheStandalonesBenchmarkNamesThem() {
        assertThat(ImageKind.of(null, null).name()).isEqualTo("qcow2-none");
        assertThat(ImageKind.of("QCOW2", "off").name()).isEqualTo("qcow2-none");
        assertThat(ImageKind.of("raw", "full").qemuPreallocation()).isEqualTo("full");
        assertThat(ImageKind.of("qcow2", "none").qemuPreallocation()).isEqualTo("off");
        assertThat(ImageKind.of("qcow2", "full").measuresReads()).isTrue();
        assertThat(ImageKind.of("qcow2", "falloc").measuresReads()).isFalse();
        assertThat(ImageKind.ofVolumeOrNull("vmdk", "full")).isNull();
        assertThatThrownBy(() -> ImageKind.of("raw", "metadata")).hasMessage("a raw image has no metadata preallocation");
        assertThat(ImageKind.parse("raw-full")).isEqualTo(ImageKind.of("raw", "full"));
    }
}
