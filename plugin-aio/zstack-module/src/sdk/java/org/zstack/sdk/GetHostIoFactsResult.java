package org.zstack.sdk;

public class GetHostIoFactsResult {
    public HostIoFactsInventory inventory;

    public void setInventory(HostIoFactsInventory inventory) {
        this.inventory = inventory;
    }

    public HostIoFactsInventory getInventory() {
        return this.inventory;
    }
}
