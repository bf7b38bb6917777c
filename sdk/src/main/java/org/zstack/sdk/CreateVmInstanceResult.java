package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The new VM, Stopped. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class CreateVmInstanceResult {
    public VmInstanceInventory inventory;
}
