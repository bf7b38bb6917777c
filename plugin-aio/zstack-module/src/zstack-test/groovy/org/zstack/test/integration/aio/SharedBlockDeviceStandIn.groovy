package org.zstack.test.integration.aio

import org.zstack.core.db.Q
import org.zstack.core.db.SQL
import org.zstack.header.errorcode.ErrorCode
import org.zstack.header.storage.primary.PrimaryStorageVO
import org.zstack.header.storage.primary.PrimaryStorageVO_
import org.zstack.header.vm.VmInstanceInventory
import org.zstack.header.vm.VmInstanceSpec
import org.zstack.header.volume.VolumeInventory
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.KVMAttachVolumeExtensionPoint
import org.zstack.kvm.KVMHostInventory
import org.zstack.kvm.KVMStartVmExtensionPoint
import org.zstack.kvm.VolumeTO

import java.util.concurrent.ConcurrentHashMap

/**
 * Stands in for ZStack's SharedBlock backend, which is not open source: a volume on a primary storage of type
 * SharedBlock reaches the agent as a block device (deviceType block, an LV path), for which vm_plugin.py writes
 * cache='none' io='native'; so does a volume a case names in {@link #devices}, at the device the case made for it (the
 * real-agent tier's loop devices). Runs before plugin-aio (order 10), as the backend's own conversion would.
 */
class SharedBlockDeviceStandIn implements KVMStartVmExtensionPoint, KVMAttachVolumeExtensionPoint {
    static final String TYPE = "SharedBlock"
    /** volume uuid -> the block device a case made for it, whatever its storage */
    static final Map<String, String> devices = new ConcurrentHashMap<String, String>()

    /**
     * Gives a primary storage another type: SharedBlock for a case, and its real type back before ZStack deletes it
     * (ZStack deletes a primary storage through its type's factory).
     */
    static void retype(String psUuid, String type) {
        SQL.New(PrimaryStorageVO.class).eq(PrimaryStorageVO_.uuid, psUuid).set(PrimaryStorageVO_.type, type).update()
        // a storage's type never changes in ZStack, so the module keeps it in memory: it forgets it as a storage of
        // this type newly added would be unknown to it
        AioCaseSupport.forgetKeptFacts()
    }

    private static Set<String> sharedBlockVolumes(List<VolumeInventory> volumes) {
        Set<String> named = volumes.findAll { it != null && devices.containsKey(it.uuid) }*.uuid as Set
        List<String> ps = volumes.findAll { it != null }*.primaryStorageUuid.findAll { it != null }
        if (ps.isEmpty()) {
            return named
        }
        Set<String> sblk = Q.New(PrimaryStorageVO.class).select(PrimaryStorageVO_.uuid).in(PrimaryStorageVO_.uuid, ps)
                .eq(PrimaryStorageVO_.type, TYPE).listValues() as Set
        return named + (volumes.findAll { it != null && sblk.contains(it.primaryStorageUuid) }*.uuid as Set)
    }

    private static void toBlock(VolumeTO to) {
        to.deviceType = VolumeTO.BLOCK
        to.installPath = devices[to.volumeUuid] ?: "/dev/sblk-vg/${to.volumeUuid}".toString()
    }

    @Override
    void beforeStartVmOnKvm(KVMHostInventory host, VmInstanceSpec spec, KVMAgentCommands.StartVmCmd cmd) {
        Set<String> block = sharedBlockVolumes([spec.destRootVolume] + spec.destDataVolumes)
        ([cmd.rootVolume] + cmd.dataVolumes).findAll { block.contains(it.volumeUuid) }.each { toBlock(it) }
    }

    @Override
    void beforeAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                            KVMAgentCommands.AttachDataVolumeCmd cmd, Map data) {
        if (!sharedBlockVolumes([volume]).isEmpty()) {
            toBlock(cmd.volume)
        }
    }

    @Override
    void startVmOnKvmSuccess(KVMHostInventory host, VmInstanceSpec spec) {
    }

    @Override
    void startVmOnKvmFailed(KVMHostInventory host, VmInstanceSpec spec, ErrorCode err) {
    }

    @Override
    void afterAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume, KVMAgentCommands.AttachDataVolumeCmd cmd) {
    }

    @Override
    void attachVolumeFailed(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                            KVMAgentCommands.AttachDataVolumeCmd cmd, ErrorCode err, Map data) {
    }

    /** ZStack builds the attach command's list of already attached volumes through this conversion. */
    @Override
    VolumeTO convertVolumeIfNeed(KVMHostInventory host, VolumeInventory inventory, VolumeTO to) {
        if (!sharedBlockVolumes([inventory]).isEmpty()) {
            toBlock(to)
        }
        return to
    }
}
