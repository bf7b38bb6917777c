package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The override as stored. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class UpdateResourceConfigResult {
    public ResourceConfigInventory inventory;
}
