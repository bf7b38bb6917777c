package org.zstack.sdk;

/** What QueryVolumeIoModeDecisionAction returns: the matching decisions (typed, unlike ZStack's generated results) and the total. */
public class QueryVolumeIoModeDecisionResult {
    public java.util.List<VolumeIoModeDecisionInventory> inventories;

    public void setInventories(java.util.List<VolumeIoModeDecisionInventory> inventories) {
        this.inventories = inventories;
    }

    public java.util.List<VolumeIoModeDecisionInventory> getInventories() {
        return this.inventories;
    }

    public java.lang.Long total;

    public void setTotal(java.lang.Long total) {
        this.total = total;
    }

    public java.lang.Long getTotal() {
        return this.total;
    }
}
