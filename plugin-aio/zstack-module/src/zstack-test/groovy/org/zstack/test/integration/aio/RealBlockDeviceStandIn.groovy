package org.zstack.test.integration.aio

import org.zstack.header.errorcode.ErrorCode
import org.zstack.header.vm.VmInstanceInventory
import org.zstack.header.vm.VmInstanceSpec
import org.zstack.header.volume.VolumeInventory
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.KVMAttachVolumeExtensionPoint
import org.zstack.kvm.KVMConvertVolumeExtensionPoint
import org.zstack.kvm.KVMHostInventory
import org.zstack.kvm.KVMStartVmExtensionPoint
import org.zstack.kvm.VolumeTO

import java.util.concurrent.ConcurrentHashMap

/**
 * The real-agent tier's stand-in for ZStack's SharedBlock backend (not open source): the volumes the case names reach
 * the agent as block devices (deviceType block, the path of a loop device the case made), as the backend's own
 * conversion sends an LV. Runs before plugin-aio (order 10), so the module decides them as the block disks they are,
 * and the agent's block branch (block_volume: cache='none' io='native') writes them.
 */
class RealBlockDeviceStandIn implements KVMStartVmExtensionPoint, KVMAttachVolumeExtensionPoint, KVMConvertVolumeExtensionPoint {
    /** volume uuid -> block device path */
    static final Map<String, String> devices = new ConcurrentHashMap<>()

    private static void toBlock(VolumeTO to) {
        String dev = to == null ? null : devices[to.volumeUuid]
        if (dev == null) return
        to.deviceType = VolumeTO.BLOCK
        to.installPath = dev
    }

    @Override
    void beforeStartVmOnKvm(KVMHostInventory host, VmInstanceSpec spec, KVMAgentCommands.StartVmCmd cmd) {
        ([cmd.rootVolume] + cmd.dataVolumes).each { toBlock(it) }
    }

    @Override
    void startVmOnKvmSuccess(KVMHostInventory host, VmInstanceSpec spec) {
    }

    @Override
    void startVmOnKvmFailed(KVMHostInventory host, VmInstanceSpec spec, ErrorCode err) {
    }

    @Override
    void beforeAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                            KVMAgentCommands.AttachDataVolumeCmd cmd, Map data) {
        toBlock(cmd.volume)
    }

    @Override
    void afterAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume, KVMAgentCommands.AttachDataVolumeCmd cmd) {
    }

    @Override
    void attachVolumeFailed(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                            KVMAgentCommands.AttachDataVolumeCmd cmd, ErrorCode err, Map data) {
    }

    @Override
    VolumeTO convertVolumeIfNeed(KVMHostInventory host, VolumeInventory inventory, VolumeTO to) {
        toBlock(to)
        return to
    }
}
