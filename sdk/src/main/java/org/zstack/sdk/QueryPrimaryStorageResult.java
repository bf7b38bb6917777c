package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** Every primary storage. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryPrimaryStorageResult {
    public List<PrimaryStorageInventory> inventories;

    /** how many match in all, with replyWithCount or count */
    public Long total;
}
