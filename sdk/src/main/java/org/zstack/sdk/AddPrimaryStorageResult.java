package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The new primary storage. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class AddPrimaryStorageResult {
    public PrimaryStorageInventory inventory;
}
