package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The VM on its new host. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class MigrateVmResult {
    public VmInstanceInventory inventory;
}
