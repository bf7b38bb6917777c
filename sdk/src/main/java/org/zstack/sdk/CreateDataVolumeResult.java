package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The new volume, its image created by the agent. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class CreateDataVolumeResult {
    public VolumeInventory inventory;
}
