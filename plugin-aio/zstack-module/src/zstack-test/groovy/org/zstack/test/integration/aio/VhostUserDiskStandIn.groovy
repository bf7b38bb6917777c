package org.zstack.test.integration.aio

import org.zstack.header.errorcode.ErrorCode
import org.zstack.header.vm.VmInstanceSpec
import org.zstack.kvm.KVMAgentCommands
import org.zstack.kvm.KVMHostInventory
import org.zstack.kvm.KVMStartVmExtensionPoint
import org.zstack.kvm.VolumeTO

import java.util.concurrent.ConcurrentHashMap

/**
 * Stands in for a vhost-user storage backend (not in open-source ZStack): the volumes a case names reach the agent as
 * deviceType vhost, for which vm_plugin.py writes a vhostuser disk without a <serial>. Runs before plugin-aio
 * (order 10), as the backend's own conversion would. Acts on no volume unless a case names it.
 */
class VhostUserDiskStandIn implements KVMStartVmExtensionPoint {
    static final Set<String> VOLUMES = ConcurrentHashMap.newKeySet()

    @Override
    void beforeStartVmOnKvm(KVMHostInventory host, VmInstanceSpec spec, KVMAgentCommands.StartVmCmd cmd) {
        ([cmd.rootVolume] + cmd.dataVolumes).findAll { it != null && VOLUMES.contains(it.volumeUuid) }.each {
            it.deviceType = VolumeTO.VHOST
            it.installPath = "/var/run/vhost-user/${it.volumeUuid}".toString()
        }
    }

    @Override
    void startVmOnKvmSuccess(KVMHostInventory host, VmInstanceSpec spec) {
    }

    @Override
    void startVmOnKvmFailed(KVMHostInventory host, VmInstanceSpec spec, ErrorCode err) {
    }
}
