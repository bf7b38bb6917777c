package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The stopped VM. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class StopVmInstanceResult {
    public VmInstanceInventory inventory;
}
