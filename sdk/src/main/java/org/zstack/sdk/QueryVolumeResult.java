package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The volumes the caller may see. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryVolumeResult {
    public List<VolumeInventory> inventories;

    /** how many match in all, with replyWithCount or count */
    public Long total;
}
