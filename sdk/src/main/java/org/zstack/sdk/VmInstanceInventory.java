package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** A VM; {@code state} is Stopped, Starting, Running or Stopping. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class VmInstanceInventory {
    public String uuid;

    public String name;

    public String state;

    public String hostUuid;

    public List<String> volumeUuids;

    /** Bytes. */
    public Long memorySize;

    public Integer cpuNum;

    public String accountUuid;
}
