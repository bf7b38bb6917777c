package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The quota after the update. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdateQuotaResult {
    public QuotaInventory inventory;
}
