package org.zstack.test.integration.aio

import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.VolumeTO
import org.zstack.sdk.DiskOfferingInventory
import org.zstack.sdk.VmInstanceInventory
import org.zstack.sdk.VolumeInventory

/**
 * plugin-aio on Ceph: QEMU opens RBD volumes with its own network driver, which takes no io attribute. Whatever is
 * requested, every disk is decided not-applicable, the generated hook leaves its <driver> as the agent wrote it, and a
 * hot-plugged Ceph volume gets no NativeAio.
 */
class AioIoModeCephCase extends AioCaseBase {

    @Override
    void environment() {
        env = AioEnvs.ceph()
        AioCaseSupport.answerProbe(env) { String hostUuid -> AioCaseSupport.CAPABLE_HOST }
    }

    @Override
    void test() {
        env.create {
            testStartOnCephTakesNoIoAttribute()
            testHotPlugOnCeph()
        }
    }

    void testStartOnCephTakesNoIoAttribute() {
        VmInstanceInventory vm = env.inventoryByName("vm") as VmInstanceInventory
        String ps = env.inventoryByName("ceph-ps").uuid
        // asked for native everywhere, and for io_uring on the root volume itself
        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode", "native") == null
        assert AioCaseSupport.setResourceConfig(adminSession(), "kvm", "vm.ioMode", vm.rootVolumeUuid, "io_uring") == null

        List<KVMAgentCommands.StartVmCmd> starts = AioCaseSupport.recordStarts(env)
        stopVmInstance { uuid = vm.uuid }
        startVmInstance { uuid = vm.uuid }
        assert starts.size() == 1
        KVMAgentCommands.StartVmCmd cmd = starts[0]
        assert cmd.rootVolume.deviceType == VolumeTO.CEPH
        assert cmd.dataVolumes.size() == 1 && cmd.dataVolumes[0].deviceType == VolumeTO.CEPH
        Map<String, Map<String, String>> disks = AioHookRunner.run(cmd)
        assert disks.size() == 2
        disks.values().each { assert it == [io: null, cache: "none"] }

        def root = AioCaseSupport.decision(adminSession(), vm.rootVolumeUuid)
        assert root.requested == "io_uring" && root.source == "VolumeVO" && root.effective == "not-applicable"
        assert root.checks.size() == 1 && root.checks[0].check == "network-storage" && root.checks[0].passed
        def data = AioCaseSupport.decision(adminSession(), cmd.dataVolumes[0].volumeUuid)
        assert data.requested == "native" && data.source == "global" && data.effective == "not-applicable"
        assert data.reason.contains("Ceph")
        // not for want of host facts: this host's probe says QEMU opens images with io_uring; the disks are Ceph's
        assert AioCaseSupport.hostFacts(adminSession(), env.inventoryByName("kvm").uuid).qemuIoUring
        assert (queryVolume { conditions = ["vmInstanceUuid=${vm.uuid}".toString()] } as List<VolumeInventory>)*.primaryStorageUuid.unique() == [ps]
    }

    void testHotPlugOnCeph() {
        VmInstanceInventory vm = env.inventoryByName("vm") as VmInstanceInventory
        DiskOfferingInventory offering = env.inventoryByName("diskOffering") as DiskOfferingInventory
        VolumeInventory vol = createDataVolume {
            name = "hot-ceph"
            diskOfferingUuid = offering.uuid
            primaryStorageUuid = env.inventoryByName("ceph-ps").uuid
        } as VolumeInventory
        List<KVMAgentCommands.AttachDataVolumeCmd> attaches = AioCaseSupport.recordAttaches(env)
        attachDataVolumeToVm { vmInstanceUuid = vm.uuid; volumeUuid = vol.uuid }
        assert attaches.size() == 1
        assert attaches[0].volume.volumeUuid == vol.uuid
        assert attaches[0].addons["NativeAio"] == null
        assert attaches[0].addons["aioIoMode"] == null
        def d = AioCaseSupport.decision(adminSession(), vol.uuid)
        assert d.operation == "attach" && d.effective == "not-applicable"
        assert AioCaseSupport.setGlobalConfig(adminSession(), "kvm", "vm.ioMode", "threads") == null
    }
}
