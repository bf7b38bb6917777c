package org.zstack.aio.server.inventory;

import java.util.List;

/** The API's views of inventory rows (ZStack field names; more fields allowed). */
public final class Inventories {

    private Inventories() {
    }

    public record PrimaryStorageInventory(String uuid, String name, String type, String url, String status,
                                          String storageKind, long volumeCount) {
    }

    public record VmInventory(String uuid, String name, String state, String hostUuid, List<String> volumeUuids,
                              long memorySize, int cpuNum, String accountUuid) {

        public static VmInventory of(VmInstanceVO vm, List<String> volumeUuids) {
            return new VmInventory(vm.getUuid(), vm.getName(), vm.getState().name(), vm.getHostUuid(), volumeUuids,
                    vm.getMemorySize(), vm.getCpuNum(), vm.getAccountUuid());
        }
    }
}
