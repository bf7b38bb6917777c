package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** An account: {@code type} is {@code SystemAdmin} or {@code Normal} (tenant). */
@JsonIgnoreProperties(ignoreUnknown = true)
public class AccountInventory {
    public String uuid;

    public String name;

    public String type;

    /** ISO-8601 UTC, e.g. 2026-01-31T12:00:00.000Z */
    public String createDate;

    public String lastOpDate;
}
