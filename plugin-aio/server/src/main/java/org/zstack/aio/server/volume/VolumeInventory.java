package org.zstack.aio.server.volume;

import org.zstack.aio.server.api.ZStackInventory;
import org.zstack.aio.plugin.DecisionRecord;

import org.zstack.aio.server.workload.WorkloadInventory;

import java.time.LocalDateTime;

/**
 * A volume as the API shows it (ZStack field names), with its resolved cache mode, its stored decision and its
 * observed workload ({@code workload}: null until its running disk was seen doing requests; docs/contract.md, "Workload").
 */
@ZStackInventory("org.zstack.header.volume.VolumeInventory")
public record VolumeInventory(String uuid, String name, String primaryStorageUuid, String primaryStorageName,
                              String primaryStorageType, String vmInstanceUuid,
                              Integer deviceId, String installPath, String format, long size, Long actualSize,
                              String preallocation, String cacheMode, String accountUuid, DecisionRecord ioModeDecision,
                              Running running, WorkloadInventory workload, LocalDateTime createDate,
                              LocalDateTime lastOpDate) {

    /**
     * The disk as its running domain has it, read back from the live XML: null when the VM does not run. It may
     * differ from {@code ioModeDecision} (the decision for the next start), e.g. after a config change.
     */
    public record Running(String io, String cache, String hostUuid, LocalDateTime since) {
    }
}
