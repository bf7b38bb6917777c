package org.zstack.sdk;

/** What GetIoModeManagementNodesAction returns: every running management node (typed, unlike ZStack's generated results). */
public class GetIoModeManagementNodesResult {
    public java.util.List<IoModeManagementNodeInventory> inventories;

    public void setInventories(java.util.List<IoModeManagementNodeInventory> inventories) {
        this.inventories = inventories;
    }

    public java.util.List<IoModeManagementNodeInventory> getInventories() {
        return this.inventories;
    }
}
