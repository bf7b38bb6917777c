package org.zstack.aio.agent.api;

import java.util.List;

/**
 * A storage path's benchmark.
 *
 * @param startedAt  ISO-8601 instant the run started
 * @param seconds    wall-clock seconds the run took
 * @param complete   false when the time budget ran out or the run was cancelled before every cell was measured
 * @param note       why not complete, or null
 * @param qemuImg    {@code qemu-img --version}'s first line
 * @param cells      one per image kind × workload × mode measured
 */
public record HostBenchRsp(String path, String startedAt, double seconds, int budgetSeconds, boolean complete,
                           String note, String qemuImg, List<BenchCell> cells) {

    /**
     * One measured cell.
     *
     * @param imageKind  e.g. qcow2-full, raw-none (see {@link BenchScores#IMAGE_KINDS})
     * @param workload   e.g. randwrite-4k-qd64 (see {@link BenchScores#WORKLOADS})
     * @param mode       threads, native or io_uring
     * @param medianOps  median ops/s over the runs
     * @param minOps     slowest run
     * @param maxOps     fastest run
     * @param runs       runs that succeeded
     * @param count      requests per run
     * @param error      why the mode could not run (e.g. QEMU refused it), null when it ran
     */
    public record BenchCell(String imageKind, String workload, String mode, double medianOps, double minOps,
                            double maxOps, int runs, int count, String error) {

        /** (max - min) / median, the spread of the runs; 0 with one run. */
        public double spread() {
            return medianOps > 0 ? (maxOps - minOps) / medianOps : 0;
        }
    }
}
