package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** Every global config. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryGlobalConfigResult {
    public List<GlobalConfigInventory> inventories;
}
