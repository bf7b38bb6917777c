package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** A login session; {@code uuid} goes into {@code Authorization: OAuth <uuid>}. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class SessionInventory {
    public String uuid;

    public String accountUuid;

    /** ISO-8601 instant after which the session is refused. */
    public String expiredDate;
}
