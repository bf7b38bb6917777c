package org.zstack.sdk;

import java.util.List;

/**
 * Benchmarks threads/native/io_uring on a host's file primary storages with qemu-img bench (admin only); auto then
 * prefers the measured fastest mode whose checks pass. operationId {@code BenchmarkHostIo}.
 */
public class BenchmarkHostIoAction extends AbstractAction<BenchmarkHostIoResult> {
    @Param
    public String uuid;

    /** Primary storages to measure; null for every file storage. */
    @Param(required = false)
    public List<String> primaryStorageUuids;

    /** Time budget per primary storage (1-110 s); null for 50. */
    @Param(required = false)
    public Integer seconds;

    /** Optional: measure only these image kinds (e.g. qcow2-full); absent: all. */
    @Param(required = false)
    public List<String> imageKinds;

    /** Optional: measure only these workloads (e.g. randwrite-4k-qd16); absent: all. */
    @Param(required = false)
    public List<String> workloads;

    @Override
    public RestInfo getRestInfo() {
        return RestInfo.post("/v1/hosts/{uuid}/io-benchmarks", "params");
    }

    @Override
    protected Class<BenchmarkHostIoResult> getResultClass() {
        return BenchmarkHostIoResult.class;
    }
}
