package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** Per-resource config overrides the caller may see (a tenant: those on its own volumes). */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryResourceConfigResult {
    public List<ResourceConfigInventory> inventories;

    /** how many match in all, with replyWithCount or count */
    public Long total;
}
