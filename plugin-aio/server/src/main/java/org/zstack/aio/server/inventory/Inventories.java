package org.zstack.aio.server.inventory;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.zstack.aio.agent.api.GuestBoot;
import org.zstack.aio.server.api.ZStackInventory;

import java.time.LocalDateTime;
import java.util.List;

/** The API's views of inventory rows (ZStack field names; more fields allowed). */
public final class Inventories {

    private Inventories() {
    }

    @ZStackInventory("org.zstack.header.storage.primary.PrimaryStorageInventory")
    public record PrimaryStorageInventory(String uuid, String name, String type, String url, String status,
                                          String storageKind, long volumeCount, LocalDateTime createDate,
                                          LocalDateTime lastOpDate) {
    }

    @ZStackInventory("org.zstack.header.vm.VmInstanceInventory")
    public record VmInventory(String uuid, String name, String state, String hostUuid, List<String> volumeUuids,
                              long memorySize, int cpuNum, String accountUuid, String stateReason,
                              LocalDateTime createDate, LocalDateTime lastOpDate,
                              @JsonInclude(JsonInclude.Include.NON_NULL) GuestBoot boot,
                              @JsonInclude(JsonInclude.Include.NON_NULL) String accel) {

        public static VmInventory of(VmInstanceVO vm, List<String> volumeUuids) {
            return new VmInventory(vm.getUuid(), vm.getName(), vm.getState().name(), vm.getHostUuid(), volumeUuids,
                    vm.getMemorySize(), vm.getCpuNum(), vm.getAccountUuid(), vm.getStateReason(), vm.getCreateDate(),
                    vm.getLastOpDate(), vm.getBoot(), vm.getAccel());
        }
    }
}
