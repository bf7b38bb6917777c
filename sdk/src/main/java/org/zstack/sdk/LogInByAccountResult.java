package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The new session; pass {@code inventory.uuid} as {@code sessionId}. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class LogInByAccountResult {
    public SessionInventory inventory;
}
