package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The accounts the caller may see (an admin: all; a tenant: itself). */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryAccountResult {
    public List<AccountInventory> inventories;

    /** how many match in all, with replyWithCount or count */
    public Long total;
}
