package org.zstack.test.integration.aio

import org.zstack.compute.vm.VmMigrateOnHypervisorFlow
import org.zstack.core.Platform
import org.zstack.core.cloudbus.CloudBus
import org.zstack.core.cloudbus.CloudBusCallBack
import org.zstack.header.core.workflow.Flow
import org.zstack.header.core.workflow.FlowChain
import org.zstack.header.core.workflow.FlowTrigger
import org.zstack.header.core.workflow.NoRollbackFlow
import org.zstack.header.host.HostConstant
import org.zstack.header.host.MigrateVmOnHypervisorMsg
import org.zstack.header.message.MessageReply
import org.zstack.header.vm.MarshalVmOperationFlowExtensionPoint
import org.zstack.header.vm.VmInstanceConstant
import org.zstack.header.vm.VmInstanceSpec

/**
 * Stands in for a ZStack live migration that moves a running VM's disks to new storage, which open-source ZStack 5.2
 * does not have: its MigrateVmOnHypervisorMsg carries a diskMigrationMap (old install path -> volume), which ZStack's
 * KVMHost turns into MigrateVmCmd.disks and the agent into disk XML written anew (vm_plugin.py _get_new_disk). Here
 * every disk "moves" to its own path. Acts only on the VMs a case lists in {@link #VMS}, in place of
 * VmMigrateOnHypervisorFlow, with the message that flow sends plus the map.
 */
class MigrationDiskMoveStandIn implements MarshalVmOperationFlowExtensionPoint {
    static final Set<String> VMS = Collections.synchronizedSet(new HashSet<String>())

    @Override
    Flow marshalVmOperationFlow(String previousFlowName, String nextFlowName, FlowChain chain, VmInstanceSpec spec) {
        if (spec.currentVmOperation != VmInstanceConstant.VmOperation.Migrate
                || nextFlowName != VmMigrateOnHypervisorFlow.class.name || !VMS.contains(spec.vmInventory.uuid)) {
            return null
        }
        return new NoRollbackFlow() {
            @Override
            void run(FlowTrigger trigger, Map data) {
                MigrateVmOnHypervisorMsg msg = new MigrateVmOnHypervisorMsg()
                msg.vmInventory = spec.vmInventory
                msg.destHostInventory = spec.destHost
                msg.srcHostUuid = spec.vmInventory.hostUuid
                Map<String, String> moves = [:]
                spec.vmInventory.allVolumes.each { moves[it.installPath] = it.uuid }
                msg.diskMigrationMap = moves
                CloudBus bus = Platform.getComponentLoader().getComponent(CloudBus.class)
                bus.makeTargetServiceIdByResourceUuid(msg, HostConstant.SERVICE_ID, msg.hostUuid)
                bus.send(msg, new CloudBusCallBack(trigger) {
                    @Override
                    void run(MessageReply reply) {
                        if (reply.success) {
                            trigger.next()
                        } else {
                            trigger.fail(reply.error)
                        }
                    }
                })
            }
        }
    }
}
