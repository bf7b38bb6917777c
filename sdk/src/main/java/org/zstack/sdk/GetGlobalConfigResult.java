package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One global config. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetGlobalConfigResult {
    public GlobalConfigInventory inventory;
}
