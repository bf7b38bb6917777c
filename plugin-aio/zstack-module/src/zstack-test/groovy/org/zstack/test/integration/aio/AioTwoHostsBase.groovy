package org.zstack.test.integration.aio

import org.zstack.core.db.Q
import org.zstack.header.vm.VmInstanceVO
import org.zstack.header.vm.VmInstanceVO_
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory

/**
 * A migration case: the VM "vm" on "kvm", a second host "kvm2", the VM's data volume (if it has one), both hosts' QEMU recorded as
 * 8.2.0 (what io_uring needs), and where the VM runs now.
 */
abstract class AioTwoHostsBase extends AioCaseBase {
    String kvm, kvm2, data
    VmInstanceInventory vm

    /** Reads the environment's names; call inside env.create. */
    protected void twoHosts() {
        vm = env.inventoryByName("vm") as VmInstanceInventory
        kvm = env.inventoryByName("kvm").uuid
        kvm2 = env.inventoryByName("kvm2").uuid
        data = (queryVolume { conditions = ["vmInstanceUuid=${vm.uuid}".toString(), "type=Data"] } as List<VolumeInventory>)[0]?.uuid
        qemu()
    }

    /**
     * Both hosts' QEMU as 8.2.0, again after a reconnect or a migration: ZStack then records the simulator's QEMU
     * (4.2.0) in KvmHypervisorInfoVO (KvmHypervisorInfoExtensions), which io_uring refuses.
     */
    protected void qemu() {
        AioCaseSupport.qemuKvm(kvm, "8.2.0")
        AioCaseSupport.qemuKvm(kvm2, "8.2.0")
    }

    protected String hostOf() {
        return Q.New(VmInstanceVO.class).select(VmInstanceVO_.hostUuid).eq(VmInstanceVO_.uuid, vm.uuid).findValue()
    }
}
