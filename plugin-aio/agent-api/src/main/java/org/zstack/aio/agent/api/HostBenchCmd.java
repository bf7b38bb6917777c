package org.zstack.aio.agent.api;

import java.util.List;

/**
 * Benchmark a file storage path with QEMU's own block layer.
 *
 * @param path        a directory on the primary storage; temporary images go to a {@code .aio-bench-*} dir under it
 * @param seconds     time budget (default 50, at most 600); counts are scaled to fit
 * @param imageKinds  which image kinds (see {@link BenchScores#IMAGE_KINDS}); null or empty: all of them
 * @param workloads   which workloads (see {@link BenchScores#WORKLOADS}); null or empty: all of them
 * @param repetitions runs per mode and cell (default 3, modes rotated between repetitions)
 */
public record HostBenchCmd(String path, Integer seconds, List<String> imageKinds, List<String> workloads,
                           Integer repetitions) {

    public HostBenchCmd(String path, Integer seconds) {
        this(path, seconds, null, null, null);
    }
}
