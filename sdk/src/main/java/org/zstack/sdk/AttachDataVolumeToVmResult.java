package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** The attached volume and the io-mode decision applied to it. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class AttachDataVolumeToVmResult {
    public VolumeInventory inventory;

    public VolumeIoModeDecisionInventory ioModeDecision;
}
