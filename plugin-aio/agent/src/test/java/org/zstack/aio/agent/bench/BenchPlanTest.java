package org.zstack.aio.agent.bench;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.agent.api.HostBenchRsp.BenchCell;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import java.math.BigInteger;
import org.zstack.aio.agent.api.HostBenchRsp;

/** The bench planner, the qemu-img bench parser and the ranking metric, without running anything. */
class BenchPlanTest {

    @Test
    void parsesQemuImgBenchOutput() {
        var run = QemuImgBenchOutput.parse("""
                Sending 20000 write requests, 4096 bytes each, 64 in parallel (starting at offset 0, step size 16789504)
                Run completed in 0.250 seconds.
                """);
        assertThat(run.count()).isEqualTo(20000);
        assertThat(run.write()).isTrue();
        assertThat(run.blockSize()).isEqualTo(4096);
        assertThat(run.depth()).isEqualTo(64);
        assertThat(run.opsPerSecond()).isEqualTo(80000.0);
        var read = QemuImgBenchOutput.parse("Sending 64 read requests, 4096 bytes each, 1 in parallel (starting at offset 0, "
                + "step size 4096)\nRun completed in 0.000 seconds.\n");
        assertThat(read.write()).isFalse();
        assertThat(read.opsPerSecond()).as("a sub-millisecond run counts as 1 ms").isEqualTo(64000.0);
        assertThatThrownBy(() -> QemuImgBenchOutput.parse("qemu-img: Could not open 'x': No such file"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not qemu-img bench output");
    }

    @Test
    void matrixSkipsReadsOfHolesAndBuildsTheCommands() {
        List<BenchPlan.Cell> all = BenchPlan.cells(null, null);
        assertThat(all).hasSize(2 * 7 + 4 * 4);
        assertThat(all).filteredOn(c -> !c.workload().write()).allMatch(c -> c.image().name().endsWith("-full"));
        BenchPlan.Cell c = BenchPlan.cells(List.of("qcow2-metadata"), List.of("randwrite-4k-qd64")).get(0);
        assertThat(BenchPlan.benchCommand(c, "io_uring", 1000, "/s/img")).containsExactly("qemu-img", "bench", "-f", "qcow2",
                "-t", "none", "-i", "io_uring", "-w", "-c", "1000", "-d", "64", "-s", "4096", "-S",
                Long.toString(BenchPlan.RANDOM_STEP), "/s/img");
        assertThat(c.image().allocatesOnWrite()).isTrue();
        BenchPlan.Cell seq = BenchPlan.cells(List.of("raw-none"), List.of("seqwrite-64k-qd16")).get(0);
        assertThat(seq.workload().step()).isEqualTo(65536);
        assertThat(BenchPlan.createCommand(seq.image(), "/s/i.raw")).contains("preallocation=off", "raw");
        assertThatThrownBy(() -> BenchPlan.cells(List.of("vmdk-full"), null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void modesRotateAndCountsFitTheBudgetWithinBounds() {
        assertThat(BenchPlan.modesFor(0)).containsExactly("threads", "native", "io_uring");
        assertThat(BenchPlan.modesFor(1)).containsExactly("native", "io_uring", "threads");
        assertThat(BenchPlan.modesFor(2)).containsExactly("io_uring", "threads", "native");
        BenchPlan.Workload w = BenchPlan.Workload.of("randwrite-4k-qd64");
        assertThat(BenchPlan.count(w, 50_000, 0.1)).isEqualTo(5000);
        assertThat(BenchPlan.count(w, 50_000, 0.0001)).isEqualTo(w.minCount());
        assertThat(BenchPlan.count(w, 5_000_000, 10)).isEqualTo(w.maxCount());
        assertThat(BenchPlan.count(w, -1, 1)).isEqualTo(w.minCount());
        // random 4K offsets visit every block of the image before repeating: the step is coprime with the block count
        long blocks = (BenchPlan.IMAGE_BYTES - 4096) / 4096;
        assertThat(BigInteger.valueOf(BenchPlan.RANDOM_STEP / 4096).gcd(BigInteger.valueOf(blocks)).intValue()).isEqualTo(1);
    }

    @Test
    void scoreIsTheGeometricMeanOfRatiosToThreadsAndAutoPicksLikeTheDecision() {
        List<BenchCell> cells = List.of(
                cell("qcow2-full", "randwrite-4k-qd64", "threads", 100), cell("qcow2-full", "randwrite-4k-qd64", "native", 400),
                cell("qcow2-full", "randwrite-4k-qd64", "io_uring", 200),
                cell("qcow2-full", "randread-4k-qd1", "threads", 100), cell("qcow2-full", "randread-4k-qd1", "native", 100),
                cell("qcow2-full", "randread-4k-qd1", "io_uring", 200));
        Map<String, Double> s = BenchScores.scores(cells, "qcow2-full");
        assertThat(s.get("threads")).isEqualTo(1.0);
        assertThat(s.get("native")).isCloseTo(2.0, within(1e-9));
        assertThat(s.get("io_uring")).isCloseTo(2.0, within(1e-9));
        // a tie keeps the preference order; native is not allowed on a sparse kind
        BenchTable table = new BenchTable(new IoModeDecider(IoModeRulesLoader.fromClasspath()));
        assertThat(table.allowedOnFileStorage("qcow2-full")).containsExactly(IoMode.IO_URING, IoMode.NATIVE, IoMode.THREADS);
        assertThat(table.allowedOnFileStorage("qcow2-falloc")).containsExactly(IoMode.IO_URING, IoMode.THREADS);
        assertThat(table.pick(s, table.allowedOnFileStorage("qcow2-full"), 0.05)).isEqualTo(IoMode.IO_URING);
        assertThat(table.pick(Map.of("threads", 1.0, "native", 3.0, "io_uring", 1.2),
                table.allowedOnFileStorage("qcow2-none"), 0.05)).isEqualTo(IoMode.IO_URING);
        assertThat(table.pick(Map.of("threads", 1.0, "native", 3.0, "io_uring", 1.2),
                table.allowedOnFileStorage("raw-full"), 0.05)).isEqualTo(IoMode.NATIVE);
        assertThat(BenchScores.imageKind("qcow2", null)).isEqualTo("qcow2-none");
        assertThat(BenchScores.imageKind("raw", "falloc")).isNull();
        assertThat(table.render(new HostBenchRsp("/s", "t", 1, 1, true, null, "qemu-img 7.2",
                cells), 0.05)).contains("qcow2-full", "randwrite-4k-qd64", "4.00", "io_uring");
    }

    private static BenchCell cell(String kind, String wl, String mode, double ops) {
        return new BenchCell(kind, wl, mode, ops, ops, ops, 1, 100, null);
    }
}
