package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One primary storage. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetPrimaryStorageResult {
    public PrimaryStorageInventory inventory;
}
