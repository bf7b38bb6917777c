package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** Every global config. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryGlobalConfigResult {
    public List<GlobalConfigInventory> inventories;

    /** how many match in all, with replyWithCount or count */
    public Long total;
}
