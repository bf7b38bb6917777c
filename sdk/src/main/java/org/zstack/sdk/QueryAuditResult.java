package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** Audit entries, newest first. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class QueryAuditResult {
    public List<AuditInventory> inventories;
}
