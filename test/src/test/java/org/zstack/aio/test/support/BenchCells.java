package org.zstack.aio.test.support;

import org.zstack.aio.agent.api.BenchScores;
import org.zstack.aio.agent.api.HostBenchRsp.BenchCell;

import java.util.ArrayList;
import java.util.List;

/** Benchmark cells a simulated agent answers, shaped so that the aggregate and one workload disagree. */
public final class BenchCells {

    private BenchCells() {
    }

    /**
     * Every shipped workload of {@code imageKind} at threads 1000 ops/s, native 900 and io_uring 2000 (the aggregate
     * favours io_uring), except {@code workload}, where native and io_uring reach the ops/s given.
     */
    public static List<BenchCell> aggregateFavoursIoUringExcept(String imageKind, String workload, double nativeOps, double ioUringOps) {
        List<BenchCell> cells = new ArrayList<>();
        for (String w : BenchScores.WORKLOADS) {
            boolean target = w.equals(workload);
            cells.add(new BenchCell(imageKind, w, "threads", 1000, 1000, 1000, 3, 100, null));
            cells.add(new BenchCell(imageKind, w, "native", target ? nativeOps : 900, 0, 0, 3, 100, null));
            cells.add(new BenchCell(imageKind, w, "io_uring", target ? ioUringOps : 2000, 0, 0, 3, 100, null));
        }
        return cells;
    }
}
