package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One VM. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetVmInstanceResult {
    public VmInstanceInventory inventory;
}
