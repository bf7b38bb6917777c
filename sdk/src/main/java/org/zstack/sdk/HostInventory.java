package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** A KVM host. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class HostInventory {
    public String uuid;

    public String name;

    public String managementIp;

    public Integer agentPort;

    public String status;

    public HostIoCapabilitiesInventory ioCapabilities;
}
