package org.zstack.sdk;

public class GetVolumeIoModeDecisionResult {
    public VolumeIoModeDecisionInventory inventory;

    public void setInventory(VolumeIoModeDecisionInventory inventory) {
        this.inventory = inventory;
    }

    public VolumeIoModeDecisionInventory getInventory() {
        return this.inventory;
    }
}
