package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** Every host. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryHostResult {
    public List<HostInventory> inventories;
}
