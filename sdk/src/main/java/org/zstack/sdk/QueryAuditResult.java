package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** Audit entries, newest first. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryAuditResult {
    public List<AuditInventory> inventories;
    /** how many match in all, with replyWithCount or count */
    public Long total;
}
