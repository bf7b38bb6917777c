package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The VMs the caller may see. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryVmInstanceResult {
    public List<VmInstanceInventory> inventories;

    /** how many match in all, with replyWithCount or count */
    public Long total;
}
