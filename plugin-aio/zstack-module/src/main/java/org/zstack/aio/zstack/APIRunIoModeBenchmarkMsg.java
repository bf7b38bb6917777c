package org.zstack.aio.zstack;

import org.springframework.http.HttpMethod;
import org.zstack.header.host.HostVO;
import org.zstack.header.message.APIMessage;
import org.zstack.header.message.APIParam;
import org.zstack.header.rest.RestRequest;
import org.zstack.header.storage.primary.PrimaryStorageVO;

/**
 * Runs the io-mode benchmark of one KVM host x one LocalStorage or NFS primary storage it mounts (qemu-img bench of
 * each mode the host allows x queue depth 1 and 32 x write and read, on a scratch image in the storage's directory),
 * one short call to the host per run, and stores what it measured. Called directly, the event comes when it has
 * ended; submitted as a long job (APISubmitLongJobMsg, jobName APIRunIoModeBenchmarkMsg) it reports its progress
 * (GetTaskProgress with the job's apiId) and may be cancelled between runs (CancelLongJob). Admin only. Bounds
 * (docs/zstack-module.md, "Io-mode benchmark"): budgetSeconds 1-600 (default bench.budgetSeconds of
 * conf/aio/measure.properties, 60), runSecondsMax 1-9 (default 9): each run is one call of at most runSecondsMax + 1 s.
 */
@RestRequest(path = "/hosts/{hostUuid}/io-mode-benchmarks", method = HttpMethod.POST, parameterName = "params",
        responseClass = APIRunIoModeBenchmarkEvent.class)
public class APIRunIoModeBenchmarkMsg extends APIMessage {
    @APIParam(resourceType = HostVO.class)
    private String hostUuid;
    @APIParam(resourceType = PrimaryStorageVO.class)
    private String primaryStorageUuid;
    /** The scratch image's kind, format-preallocation (qcow2-full); default qcow2 with the storage's qcow2.allocation. */
    @APIParam(required = false, maxLength = 32)
    private String imageKind;
    @APIParam(required = false, numberRange = {1, 600})
    private Integer budgetSeconds;
    @APIParam(required = false, numberRange = {1, 9})
    private Integer runSecondsMax;

    public String getHostUuid() {
        return hostUuid;
    }

    public void setHostUuid(String hostUuid) {
        this.hostUuid = hostUuid;
    }

    public String getPrimaryStorageUuid() {
        return primaryStorageUuid;
    }

    public void setPrimaryStorageUuid(String primaryStorageUuid) {
        this.primaryStorageUuid = primaryStorageUuid;
    }

    public String getImageKind() {
        return imageKind;
    }

    public void setImageKind(String imageKind) {
        this.imageKind = imageKind;
    }

    public Integer getBudgetSeconds() {
        return budgetSeconds;
    }

    public void setBudgetSeconds(Integer budgetSeconds) {
        this.budgetSeconds = budgetSeconds;
    }

    public Integer getRunSecondsMax() {
        return runSecondsMax;
    }

    public void setRunSecondsMax(Integer runSecondsMax) {
        this.runSecondsMax = runSecondsMax;
    }

    public static APIRunIoModeBenchmarkMsg __example__() {
        APIRunIoModeBenchmarkMsg msg = new APIRunIoModeBenchmarkMsg();
        msg.setHostUuid("8a5a4e8f9d0c3b7a1f2e4d6c5e1d6a2d");
        msg.setPrimaryStorageUuid("70a0618804864b3dabe8be9824c8028c");
        return msg;
    }
}
