package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The started VM and the io-mode decision applied to each of its volumes. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class StartVmInstanceResult {
    public VmInstanceInventory inventory;

    /** One per volume, as applied (including any mode libvirt/QEMU refused at start). */
    public List<VolumeIoModeDecisionInventory> ioModeDecisions;
}
