package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** A volume; {@code ioModeDecision} is the last decision applied to it, null before its first start. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class VolumeInventory {
    public String uuid;

    public String name;

    public String primaryStorageUuid;

    public String vmInstanceUuid;

    public Integer deviceId;

    public String installPath;

    /** qcow2 or raw. */
    public String format;

    /** Virtual size in bytes. */
    public Long size;

    /** Allocated bytes when measured. */
    public Long actualSize;

    /** none, metadata, falloc or full. */
    public String preallocation;

    public String cacheMode;

    public String accountUuid;

    public VolumeIoModeDecisionInventory ioModeDecision;

    /** The disk as its running domain has it (read back from the live domain XML); null when its VM does not run. */
    public VolumeRunningInventory running;

    /** What the running disk was observed doing; null until it was seen doing requests. */
    public VolumeWorkloadInventory workload;
}
