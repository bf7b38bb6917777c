package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The global config after the update. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdateGlobalConfigResult {
    public GlobalConfigInventory inventory;
}
