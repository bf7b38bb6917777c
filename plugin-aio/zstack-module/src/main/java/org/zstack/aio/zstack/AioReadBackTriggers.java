package org.zstack.aio.zstack;

import org.zstack.core.db.SQL;
import org.zstack.header.core.workflow.Flow;
import org.zstack.header.core.workflow.FlowTrigger;
import org.zstack.header.core.workflow.NoRollbackFlow;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.vm.VmInstanceInventory;
import org.zstack.header.vm.VmInstanceMigrateExtensionPoint;
import org.zstack.header.vm.VmInstanceSpec;
import org.zstack.header.vm.VmInstanceState;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.header.volume.VolumeVO;
import org.zstack.kvm.KVMAgentCommands.AttachDataVolumeCmd;
import org.zstack.kvm.KVMAgentCommands.StartVmCmd;
import org.zstack.kvm.KVMAttachVolumeExtensionPoint;
import org.zstack.kvm.KVMHostConnectExtensionPoint;
import org.zstack.kvm.KVMHostConnectedContext;
import org.zstack.kvm.KVMHostInventory;
import org.zstack.kvm.KVMStartVmExtensionPoint;
import org.zstack.kvm.VolumeTO;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When the module reads disks back ({@link IoModeReadBack}): after each start, hot-plug and live migration the host
 * has done (registered after the extensions that store the operation's records), and at each connect of a host (a
 * reconnect, and every host again after a management node's restart) for every VM ZStack has running there. Each only
 * hands the VMs over: the read-back runs later on another thread, and the operation goes on at once.
 */
public class AioReadBackTriggers implements KVMStartVmExtensionPoint, KVMAttachVolumeExtensionPoint,
        VmInstanceMigrateExtensionPoint, KVMHostConnectExtensionPoint {

    private final IoModeReadBack readBack;
    private final AioSchema schema;

    public AioReadBackTriggers(IoModeReadBack readBack, AioSchema schema) {
        this.readBack = readBack;
        this.schema = schema;
    }

    @Override
    public void startVmOnKvmSuccess(KVMHostInventory host, VmInstanceSpec spec) {
        if (!schema.ready()) return;
        List<VolumeInventory> volumes = new ArrayList<>();
        if (spec.getDestRootVolume() != null) volumes.add(spec.getDestRootVolume());
        volumes.addAll(spec.getDestDataVolumes());
        readBack.vm(host.getUuid(), host.getName(), spec.getVmInventory().getUuid(), volumes);
    }

    @Override
    public void afterAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume, AttachDataVolumeCmd cmd) {
        if (!schema.ready()) return;
        List<VolumeInventory> volumes = new ArrayList<>();
        for (VolumeInventory v : vm.getAllVolumes()) if (!v.getUuid().equals(volume.getUuid())) volumes.add(v);
        volumes.add(volume);
        readBack.vm(host.getUuid(), host.getName(), vm.getUuid(), volumes);
    }

    @Override
    public void afterMigrateVm(VmInstanceInventory inv, String srcHostUuid) {
        if (!schema.ready() || inv.getHostUuid() == null) return;
        readBack.vm(inv.getHostUuid(), null, inv.getUuid(), inv.getAllVolumes());
    }

    @Override
    public Flow createKvmHostConnectingFlow(KVMHostConnectedContext context) {
        final String hostUuid = context.getInventory().getUuid();
        final String hostName = context.getInventory().getName();
        return new NoRollbackFlow() {
            String __name__ = "aio-read-back-running-vms";

            @Override
            public void run(FlowTrigger trigger, Map data) {
                if (schema.ready()) readBack.later(hostUuid, hostName, () -> runningOn(hostUuid));
                trigger.next();
            }
        };
    }

    /** Each VM ZStack has running (or paused) on the host, with its volumes: one statement. */
    static Map<String, List<VolumeInventory>> runningOn(String hostUuid) {
        List<VolumeVO> rows = SQL.New("select v from VolumeVO v, VmInstanceVO vm where v.vmInstanceUuid = vm.uuid"
                + " and vm.hostUuid = :host and vm.state in (:states)", VolumeVO.class).param("host", hostUuid)
                .param("states", Arrays.asList(VmInstanceState.Running, VmInstanceState.Paused)).list();
        Map<String, List<VolumeInventory>> out = new LinkedHashMap<>();
        for (VolumeVO v : rows) out.computeIfAbsent(v.getVmInstanceUuid(), k -> new ArrayList<>()).add(VolumeInventory.valueOf(v));
        return out;
    }

    // what the triggers leave to the other extensions
    @Override
    public void beforeStartVmOnKvm(KVMHostInventory host, VmInstanceSpec spec, StartVmCmd cmd) {
    }

    @Override
    public void startVmOnKvmFailed(KVMHostInventory host, VmInstanceSpec spec, ErrorCode err) {
    }

    @Override
    public void beforeAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                                   AttachDataVolumeCmd cmd, Map data) {
    }

    @Override
    public void attachVolumeFailed(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                                   AttachDataVolumeCmd cmd, ErrorCode err, Map data) {
    }

    @Override
    public VolumeTO convertVolumeIfNeed(KVMHostInventory host, VolumeInventory inventory, VolumeTO to) {
        return to;
    }

    @Override
    public void beforeMigrateVm(VmInstanceInventory inv, String destHostUuid) {
    }
}
