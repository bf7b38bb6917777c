package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The account's quotas. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryQuotaResult {
    public List<QuotaInventory> inventories;
}
