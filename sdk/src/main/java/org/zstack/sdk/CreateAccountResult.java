package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The new tenant account. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class CreateAccountResult {
    public AccountInventory inventory;
}
