package org.zstack.aio.zstack;

import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.DiskPlan;
import org.zstack.aio.plugin.DiskRequest;
import org.zstack.aio.plugin.HostRef;
import org.zstack.aio.plugin.XmlHookScript;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.vm.VmInstanceSpec;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.kvm.KVMAgentCommands.StartVmCmd;
import org.zstack.kvm.KVMHostInventory;
import org.zstack.kvm.KVMStartVmExtensionPoint;
import org.zstack.kvm.VolumeTO;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A VM start on KVM: the spec's volumes and the StartVmCmd's VolumeTOs go to the core's use case, whose plan is applied
 * through what ZStack's unmodified agent understands, the userDefinedXmlHookScript addon ({@link XmlHookScript}: it
 * sets io= on each disk it reaches, an admin's own hook kept and run last). A refused plan stops the start before
 * anything reaches the host; the records are stored once the agent has answered success, off the start's thread
 * ({@link IoModeDecisionStore#saveOrKeepLater}: every read of them waits for that write). A start the host failed
 * because libvirt or QEMU refused an io mode is recovered as far as ZStack lets an extension ({@link StartRecovery}).
 */
public class AioStartVmExtension implements KVMStartVmExtensionPoint {

    private final DiskIoModes ioModes;
    private final ZStackPortsFactory ports;
    private final AioSchema schema;
    private final PendingRecords pending;
    private final StartRecovery recovery;

    public AioStartVmExtension(DiskIoModes ioModes, ZStackPortsFactory ports, IoModeDecisionStore store, AioSchema schema,
                               RefusedIoModeStore refusals) {
        this.ioModes = ioModes;
        this.ports = ports;
        this.schema = schema;
        this.pending = new PendingRecords(store);
        this.recovery = new StartRecovery(ioModes, refusals);
    }

    @Override
    public void beforeStartVmOnKvm(KVMHostInventory host, VmInstanceSpec spec, StartVmCmd cmd) {
        String vmUuid = spec.getVmInventory().getUuid();
        if (!schema.readyFor("the start of vm[uuid:" + vmUuid + "]")) return;
        List<VolumeInventory> volumes = new ArrayList<>();
        if (spec.getDestRootVolume() != null) volumes.add(spec.getDestRootVolume());
        volumes.addAll(spec.getDestDataVolumes());
        List<VolumeTO> disks = new ArrayList<>();
        if (cmd.getRootVolume() != null) disks.add(cmd.getRootVolume());
        disks.addAll(cmd.getDataVolumes());
        List<String> uuids = new ArrayList<>();
        for (VolumeInventory v : volumes) uuids.add(v.getUuid());
        Map<String, String> imagePaths = new HashMap<>();
        for (VolumeTO to : disks) imagePaths.put(to.getVolumeUuid(), to.getInstallPath());

        ZStackPorts startPorts = ports.forDisks(volumes, disks);
        DiskPlan plan = ioModes.plan(DiskRequest.start(vmUuid, new HostRef(host.getUuid(), host.getName()), uuids), startPorts);
        pending.hold(vmUuid, plan);
        recovery.hold(vmUuid, plan, startPorts, imagePaths);
        Object adminHook = cmd.getAddons().get(XmlHookScript.ADDON);
        cmd.getAddons().put(XmlHookScript.ADDON, XmlHookScript.forStart(plan, adminHook == null ? null : adminHook.toString()));
    }

    @Override
    public void startVmOnKvmSuccess(KVMHostInventory host, VmInstanceSpec spec) {
        pending.saveHeldLater(spec.getVmInventory().getUuid());
        recovery.succeeded(spec.getVmInventory().getUuid());
    }

    @Override
    public void startVmOnKvmFailed(KVMHostInventory host, VmInstanceSpec spec, ErrorCode err) {
        pending.drop(spec.getVmInventory().getUuid());
        recovery.failed(spec.getVmInventory().getUuid(), err);
    }
}
