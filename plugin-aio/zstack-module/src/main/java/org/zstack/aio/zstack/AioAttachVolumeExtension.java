package org.zstack.aio.zstack;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.plugin.AgentProfile;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.DiskPlan;
import org.zstack.aio.plugin.DiskRequest;
import org.zstack.aio.plugin.HostRef;
import org.zstack.aio.plugin.PlannedDisk;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.vm.VmInstanceInventory;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.kvm.KVMAgentCommands.AttachDataVolumeCmd;
import org.zstack.kvm.KVMAttachVolumeExtensionPoint;
import org.zstack.kvm.KVMHostInventory;
import org.zstack.kvm.VolumeTO;

import java.util.Collections;
import java.util.Map;

/**
 * A hot-plug on KVM: the volume and its VolumeTO go to the core's use case, which asks the host's agent
 * ({@link AgentProfile#ZSTACK_STOCK}, or {@link AgentProfile#ZSTACK_PATCHED} where the host's probe found the kvmagent
 * patch) what it can set. The unmodified agent has the NativeAio addon only; the decided mode also goes in the
 * aioIoMode addon, which only the patch reads. A refused plan stops the attach before anything reaches the host; the
 * record is stored once the agent has answered success.
 */
public class AioAttachVolumeExtension implements KVMAttachVolumeExtensionPoint {

    /** the agent's hot-plug flag: io="native" on the attached disk's driver (vm_plugin.py _attach_data_volume) */
    static final String NATIVE_AIO_ADDON = "NativeAio";
    /** read only by the optional kvmagent patch (kvmagent/aio-hotplug-io-mode.patch): volume uuid -> io mode */
    static final String IO_MODE_ADDON = "aioIoMode";

    private final DiskIoModes ioModes;
    private final ZStackPortsFactory ports;
    private final AioSchema schema;
    private final PendingRecords pending;

    public AioAttachVolumeExtension(DiskIoModes ioModes, ZStackPortsFactory ports, IoModeDecisionStore store, AioSchema schema) {
        this.ioModes = ioModes;
        this.ports = ports;
        this.schema = schema;
        this.pending = new PendingRecords(store);
    }

    @Override
    public void beforeAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                                   AttachDataVolumeCmd cmd, Map data) {
        if (!schema.readyFor("the hot-plug of volume[uuid:" + volume.getUuid() + "]")) return;
        DiskPlan plan = ioModes.plan(DiskRequest.attach(vm.getUuid(), new HostRef(host.getUuid(), host.getName()), volume.getUuid()),
                ports.forDisks(Collections.singletonList(volume), Collections.singletonList(cmd.getVolume())));
        pending.hold(volume.getUuid(), plan);
        PlannedDisk disk = plan.disk(volume.getUuid());
        if (disk.set() == IoMode.NATIVE) cmd.getAddons().put(NATIVE_AIO_ADDON, true);
        if (disk.decided() != null) {
            // a host patched since its last probe applies it; the record says what the probed agent gives
            cmd.getAddons().put(IO_MODE_ADDON, Collections.singletonMap(volume.getUuid(), disk.decided().wire()));
        }
    }

    @Override
    public void afterAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume, AttachDataVolumeCmd cmd) {
        pending.saveHeld(volume.getUuid());
    }

    @Override
    public void attachVolumeFailed(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                                   AttachDataVolumeCmd cmd, ErrorCode err, Map data) {
        pending.drop(volume.getUuid());
    }

    @Override
    public VolumeTO convertVolumeIfNeed(KVMHostInventory host, VolumeInventory inventory, VolumeTO to) {
        return to;
    }
}
