package org.zstack.aio.zstack;

import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecision;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.zstack.core.Platform.operr;

/**
 * Decides every disk's io mode when ZStack starts a VM on KVM or hot-plugs a volume, and applies it through what
 * ZStack's unmodified agent understands: the userDefinedXmlHookScript addon at start, the NativeAio addon at
 * hot-plug. The decision is stored once the agent has answered success.
 */
public class AioIoModeKvmExtension implements KVMStartVmExtensionPoint, KVMAttachVolumeExtensionPoint {
    private static final CLogger logger = Utils.getLogger(AioIoModeKvmExtension.class);

    /** the agent's hot-plug flag: io="native" on the attached disk's driver (vm_plugin.py _attach_data_volume) */
    static final String NATIVE_AIO_ADDON = "NativeAio";
    /** read only by the optional kvmagent patch (kvmagent/aio-hotplug-io-mode.patch): volume uuid -> io mode */
    static final String IO_MODE_ADDON = "aioIoMode";
    static final String OPERATION_START = "start";
    static final String OPERATION_ATTACH = "attach";

    private final AioIoModeComponent module;
    /** decisions sent with a start or attach that the agent has not answered yet, by VM uuid or volume uuid */
    private final Map<String, List<VolumeIoModeDecisionInventory>> inFlight = new ConcurrentHashMap<>();

    public AioIoModeKvmExtension(AioIoModeComponent module) {
        this.module = module;
    }

    @Override
    public void beforeStartVmOnKvm(KVMHostInventory host, VmInstanceSpec spec, StartVmCmd cmd) {
        List<VolumeInventory> volumes = new ArrayList<>();
        if (spec.getDestRootVolume() != null) volumes.add(spec.getDestRootVolume());
        volumes.addAll(spec.getDestDataVolumes());
        List<VolumeTO> disks = new ArrayList<>();
        if (cmd.getRootVolume() != null) disks.add(cmd.getRootVolume());
        disks.addAll(cmd.getDataVolumes());
        Map<String, String> cacheModes = new LinkedHashMap<>();
        for (VolumeTO to : disks) cacheModes.put(to.getVolumeUuid(), to.getCacheMode());

        String vmUuid = spec.getVmInventory().getUuid();
        List<IoModeDecision> decisions = module.planner().decide(volumes, cacheModes, host.getUuid());
        Map<String, IoMode> modes = new LinkedHashMap<>();
        List<VolumeIoModeDecisionInventory> applied = new ArrayList<>();
        for (IoModeDecision d : decisions) {
            refuseIfRefused(d, vmUuid);
            if (d.effectiveMode() != null) modes.put(d.volumeUuid(), d.effectiveMode());
            applied.add(VolumeIoModeDecisionInventory.valueOf(d, vmUuid, OPERATION_START, d.reason()));
        }
        Object adminHook = cmd.getAddons().get(XmlHookScript.ADDON);
        cmd.getAddons().put(XmlHookScript.ADDON, XmlHookScript.build(modes, adminHook == null ? null : adminHook.toString()));
        inFlight.put(vmUuid, applied);
    }

    @Override
    public void startVmOnKvmSuccess(KVMHostInventory host, VmInstanceSpec spec) {
        List<VolumeIoModeDecisionInventory> applied = inFlight.remove(spec.getVmInventory().getUuid());
        if (applied != null) module.store().save(applied);
    }

    @Override
    public void startVmOnKvmFailed(KVMHostInventory host, VmInstanceSpec spec, ErrorCode err) {
        inFlight.remove(spec.getVmInventory().getUuid());
    }

    @Override
    public void beforeAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume,
                                   AttachDataVolumeCmd cmd, Map data) {
        VolumeTO to = cmd.getVolume();
        IoModeDecision d = module.planner().decide(Collections.singletonList(volume),
                Collections.singletonMap(volume.getUuid(), to.getCacheMode()), host.getUuid()).get(0);
        refuseIfRefused(d, vm.getUuid());
        IoMode mode = d.effectiveMode();
        String reason = d.reason();
        if (mode == IoMode.NATIVE) {
            cmd.getAddons().put(NATIVE_AIO_ADDON, true);
        } else if (mode != null) {
            cmd.getAddons().put(IO_MODE_ADDON, Collections.singletonMap(volume.getUuid(), mode.wire()));
            String agentDefault = agentDefaultAtHotPlug(to);
            if (!mode.wire().equals(agentDefault)) {
                reason = HotPlugLimit.reason(d.reason(), mode, agentDefault);
            }
        }
        inFlight.put(volume.getUuid(), Collections.singletonList(
                VolumeIoModeDecisionInventory.valueOf(d, vm.getUuid(), OPERATION_ATTACH, reason)));
    }

    @Override
    public void afterAttachVolume(KVMHostInventory host, VmInstanceInventory vm, VolumeInventory volume, AttachDataVolumeCmd cmd) {
        List<VolumeIoModeDecisionInventory> applied = inFlight.remove(volume.getUuid());
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

    /**
     * What the unmodified agent gives a hot-plugged disk without NativeAio: file disks get no io attribute (QEMU's
     * default, threads); block disks get a hard-coded io="native".
     */
    private static String agentDefaultAtHotPlug(VolumeTO to) {
        return VolumeTO.FILE.equals(to.getDeviceType()) ? IoMode.THREADS.wire() : IoMode.NATIVE.wire();
    }

    private static void refuseIfRefused(IoModeDecision d, String vmUuid) {
        if (!d.refused()) return;
        logger.warn(String.format("io mode refused for volume[uuid:%s] of vm[uuid:%s]: %s", d.volumeUuid(), vmUuid, d.reason()));
        throw new OperationFailureException(operr("cannot start or attach volume[uuid:%s] of vm[uuid:%s]: %s",
                d.volumeUuid(), vmUuid, d.reason()));
    }
}
