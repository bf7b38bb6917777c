package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** Every host. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryHostResult {
    public List<HostInventory> inventories;

    /** how many match in all, with replyWithCount or count */
    public Long total;
}
