package org.zstack.aio.zstack;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.plugin.AgentProfile;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.DiskKind;
import org.zstack.aio.plugin.Operation;
import org.zstack.header.errorcode.ErrorCode;
import org.zstack.header.errorcode.OperationFailureException;
import org.zstack.header.vm.VmInstanceInventory;
import org.zstack.header.vm.VmInstanceSpec;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.kvm.KVMAgentCommands.AttachDataVolumeCmd;
import org.zstack.kvm.KVMAgentCommands.StartVmCmd;
import org.zstack.kvm.KVMAttachVolumeExtensionPoint;
import org.zstack.kvm.KVMHostInventory;
import org.zstack.kvm.KVMStartVmExtensionPoint;
import org.zstack.kvm.VolumeTO;
import org.zstack.utils.Utils;
import org.zstack.utils.logging.CLogger;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.zstack.core.Platform.operr;

/**
 * Decides every disk's io mode when ZStack starts a VM on KVM or hot-plugs a volume, and applies it through what
 * ZStack's unmodified agent understands: the userDefinedXmlHookScript addon at start, the NativeAio addon at
 * hot-plug (what it gets there is the core's {@link AgentProfile#ZSTACK_STOCK}, or {@link AgentProfile#ZSTACK_PATCHED}
 * on a host whose probe found the kvmagent patch, which reads the aioIoMode addon). The decision is stored once the agent
 * has answered success.
 */
public class AioIoModeKvmExtension implements KVMStartVmExtensionPoint, KVMAttachVolumeExtensionPoint {
    private static final CLogger logger = Utils.getLogger(AioIoModeKvmExtension.class);

    /** the agent's hot-plug flag: io="native" on the attached disk's driver (vm_plugin.py _attach_data_volume) */
    static final String NATIVE_AIO_ADDON = "NativeAio";
    /** read only by the optional kvmagent patch (kvmagent/aio-hotplug-io-mode.patch): volume uuid -> io mode */
    static final String IO_MODE_ADDON = "aioIoMode";
    /**
     * What ZStack's agent applies at start, patched or not (the patch changes only the hot-plug): the start hook sets
     * every disk it reaches. At hot-plug the host's own profile counts (its probe's kvmagent_patch=).
     */
    private static final AgentProfile AGENT = AgentProfile.ZSTACK_STOCK;
    /**
     * VolumeTO device types whose disk the agent writes without a {@code <serial>} (vm_plugin.py set_volume_serial_id:
     * type vhostuser, and the iSCSI disk it writes as device lun), so the start hook cannot find them.
     */
    private static final Map<String, String> UNREACHABLE_AT_START = new HashMap<>();

    static {
        UNREACHABLE_AT_START.put(VolumeTO.VHOST, "a vhost-user disk");
        UNREACHABLE_AT_START.put(VolumeTO.ISCSI, "an iSCSI disk it attaches as a SCSI LUN");
    }

    private final AioIoModeComponent module;
    /** decisions sent with a start or attach that the agent has not answered yet, by VM uuid or volume uuid */
    private final Map<String, List<DecisionRecord>> inFlight = new ConcurrentHashMap<>();

    public AioIoModeKvmExtension(AioIoModeComponent module) {
        this.module = module;
    }

    @Override
    public void beforeStartVmOnKvm(KVMHostInventory host, VmInstanceSpec spec, StartVmCmd cmd) {
        if (!module.schema().readyFor("the start of vm[uuid:" + spec.getVmInventory().getUuid() + "]")) return;
        List<VolumeInventory> volumes = new ArrayList<>();
        if (spec.getDestRootVolume() != null) volumes.add(spec.getDestRootVolume());
        volumes.addAll(spec.getDestDataVolumes());
        List<VolumeTO> disks = new ArrayList<>();
        if (cmd.getRootVolume() != null) disks.add(cmd.getRootVolume());
        disks.addAll(cmd.getDataVolumes());
        Map<String, String> cacheModes = new LinkedHashMap<>();
        Map<String, String> deviceTypes = new LinkedHashMap<>();
        for (VolumeTO to : disks) {
            cacheModes.put(to.getVolumeUuid(), to.getCacheMode());
            deviceTypes.put(to.getVolumeUuid(), to.getDeviceType());
        }

        String vmUuid = spec.getVmInventory().getUuid();
        Map<String, IoMode> modes = new LinkedHashMap<>();
        List<DecisionRecord> applied = new ArrayList<>();
        for (DiskIoModePlanner.Planned p : module.planner().decide(volumes, cacheModes, host.getUuid())) {
            IoModeDecision d = p.decision;
            refuseIfRefused(d.refused(), d.volumeUuid(), vmUuid, d.reason());
            String unreachable = UNREACHABLE_AT_START.get(deviceTypes.get(d.volumeUuid()));
            if (unreachable != null) {
                d = AGENT.unreachableAtStart(d, "ZStack's agent writes no <serial> for " + unreachable);
            } else if (d.effectiveMode() != null) {
                modes.put(d.volumeUuid(), d.effectiveMode());
            }
            applied.add(DecisionRecord.of(d, vmUuid, Operation.START, null, null));
        }
        Object adminHook = cmd.getAddons().get(XmlHookScript.ADDON);
        cmd.getAddons().put(XmlHookScript.ADDON, XmlHookScript.build(modes, adminHook == null ? null : adminHook.toString()));
        inFlight.put(vmUuid, applied);
    }

    @Override
    public void startVmOnKvmSuccess(KVMHostInventory host, VmInstanceSpec spec) {
        List<DecisionRecord> applied = inFlight.remove(spec.getVmInventory().getUuid());
        if (applied != null) module.store().save(applied);
    }

    @Override
    public void startVmOnKvmFailed(KVMHostInventory host, VmInstanceSpec spec, ErrorCode err) {
        inFlight.remove(spec.getVmInventory().getUuid());
    }

    /**
     * The core's {@link AgentProfile} says what this host's agent can set at hot-plug: the disk gets the decided mode,
     * or the agent's own default and the record says so, or (onUnsatisfied = fail) nothing reaches the host.
     */
    @Override
    public void beforeAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                                   AttachDataVolumeCmd cmd, Map data) {
        if (!module.schema().readyFor("the hot-plug of volume[uuid:" + volume.getUuid() + "]")) return;
        VolumeTO to = cmd.getVolume();
        DiskIoModePlanner.Planned p = module.planner().decide(Collections.singletonList(volume),
                Collections.singletonMap(volume.getUuid(), to.getCacheMode()), host.getUuid()).get(0);
        refuseIfRefused(p.decision.refused(), volume.getUuid(), vm.getUuid(), p.decision.reason());
        AgentProfile.HotPlug plug = module.facts().agent(host.getUuid())
                .atHotPlug(p.decision, diskKind(to, p.decision), p.settings.policy().onUnsatisfied());
        refuseIfRefused(plug.refusal() != null, volume.getUuid(), vm.getUuid(), plug.refusal());
        if (plug.set() == IoMode.NATIVE) cmd.getAddons().put(NATIVE_AIO_ADDON, true);
        IoMode decided = p.decision.effectiveMode();
        if (decided != null) cmd.getAddons().put(IO_MODE_ADDON, Collections.singletonMap(volume.getUuid(), decided.wire()));
        inFlight.put(volume.getUuid(), Collections.singletonList(
                DecisionRecord.of(plug.recorded(), vm.getUuid(), Operation.ATTACH, null, null)));
    }

    @Override
    public void afterAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume, AttachDataVolumeCmd cmd) {
        List<DecisionRecord> applied = inFlight.remove(volume.getUuid());
        if (applied != null) module.store().save(applied);
    }

    @Override
    public void attachVolumeFailed(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                                   AttachDataVolumeCmd cmd, ErrorCode err, Map data) {
        inFlight.remove(volume.getUuid());
    }

    @Override
    public VolumeTO convertVolumeIfNeed(KVMHostInventory host, VolumeInventory inventory, VolumeTO to) {
        return to;
    }

    /** How the agent opens the disk: a decision that is not applicable is network storage (Ceph), which takes no io. */
    private static DiskKind diskKind(VolumeTO to, IoModeDecision d) {
        if (!d.applicable()) return DiskKind.NETWORK;
        return VolumeTO.FILE.equals(to.getDeviceType()) ? DiskKind.FILE : DiskKind.BLOCK;
    }

    private static void refuseIfRefused(boolean refused, String volumeUuid, String vmUuid, String reason) {
        if (!refused) return;
        logger.warn(String.format("io mode refused for volume[uuid:%s] of vm[uuid:%s]: %s", volumeUuid, vmUuid, reason));
        throw new OperationFailureException(operr("cannot start or attach volume[uuid:%s] of vm[uuid:%s]: %s",
                volumeUuid, vmUuid, reason));
    }
}
