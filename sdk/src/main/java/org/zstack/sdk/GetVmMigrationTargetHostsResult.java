package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** Every other connected host, with the VM's disks as they would run there. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetVmMigrationTargetHostsResult {
    public List<MigrationTargetHostInventory> inventories;
}
