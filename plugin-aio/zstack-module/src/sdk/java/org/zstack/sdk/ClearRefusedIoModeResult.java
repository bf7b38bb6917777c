package org.zstack.sdk;

/** The refusals ClearRefusedIoModeAction cleared (empty: none was remembered). */
public class ClearRefusedIoModeResult {
    public java.util.List<RefusedIoModeInventory> inventories;

    public void setInventories(java.util.List<RefusedIoModeInventory> inventories) {
        this.inventories = inventories;
    }

    public java.util.List<RefusedIoModeInventory> getInventories() {
        return this.inventories;
    }
}
