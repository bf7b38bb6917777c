package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One volume. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetVolumeResult {
    public VolumeInventory inventory;
}
