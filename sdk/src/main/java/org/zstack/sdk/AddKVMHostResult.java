package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The host with the facts its agent reported. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class AddKVMHostResult {
    public HostInventory inventory;
}
