package org.zstack.aio.server.vm;

import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.decision.Check;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.agent.AgentOutcomeUnknownException;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.Inventories.VmInventory;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VmInstanceVO.State;
import org.zstack.aio.server.inventory.VolumeRepository;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.iomode.IoModeFactsLoader;
import org.zstack.aio.server.iomode.IoModeService;
import org.zstack.aio.server.iomode.IoModeService.Decided;
import org.zstack.aio.server.iomode.IoModeService.StoredDecision;
import org.zstack.aio.server.iomode.VolumeContext;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * VM start, stop and volume hot-plug. A start decides every disk (constant queries), sends the driver settings to
 * the agent, and stores the applied decisions only when the agent succeeded: a refused, failed or unreachable start
 * leaves the VM stopped and its stored decisions as they were (a refusal by policy stores the refusal itself).
 */
@Service
public class VmLifecycle {

    public record StartResult(VmInventory inventory, List<StoredDecision> ioModeDecisions) {
    }

    public record AttachResult(Object inventory, StoredDecision ioModeDecision) {
    }

    private final VmService vms;
    private final VmStateRepository states;
    private final HostService hosts;
    private final IoModeFactsLoader facts;
    private final IoModeService ioModes;
    private final DiskPlanner planner;
    private final AgentClient agent;
    private final VolumeRepository volumes;
    private final TransactionTemplate tx;
    private final org.zstack.aio.server.volume.VolumeService volumeService;

    public VmLifecycle(VmService vms, VmStateRepository states, HostService hosts, IoModeFactsLoader facts,
                       IoModeService ioModes, DiskPlanner planner, AgentClient agent, VolumeRepository volumes,
                       TransactionTemplate tx, org.zstack.aio.server.volume.VolumeService volumeService) {
        this.vms = vms;
        this.states = states;
        this.hosts = hosts;
        this.facts = facts;
        this.ioModes = ioModes;
        this.planner = planner;
        this.agent = agent;
        this.volumes = volumes;
        this.tx = tx;
        this.volumeService = volumeService;
    }

    public StartResult start(Caller caller, String vmUuid) {
        VmInstanceVO vm = vms.owned(caller, vmUuid);
        HostVO host = hosts.find(vm.getHostUuid());
        claim(vm, State.Stopped, State.Starting, "start");
        boolean started = false;
        try {
            List<Decided> decided = ioModes.decide(facts.volumesOfVm(vmUuid), host.getUuid());
            if (planner.pluginEnabled()) refuseIfAnyRefused(vmUuid, decided);
            List<DiskTO> disks = new ArrayList<>(decided.size());
            for (int i = 0; i < decided.size(); i++) disks.add(planner.plan(decided.get(i), i));
            VmStartRsp rsp;
            try {
                rsp = agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_START,
                        new VmStartCmd(vmUuid, vm.getName(), vm.getMemorySize(), vm.getCpuNum(), disks), VmStartRsp.class);
            } catch (AgentOutcomeUnknownException e) {
                throw undoStart(host, vmUuid, e);
            }
            Map<String, DiskResult> applied = new HashMap<>();
            if (rsp.disks() != null) rsp.disks().forEach(r -> applied.put(r.volumeUuid(), r));
            List<Decided> recorded = decided.stream().map(d -> AppliedDecisions.apply(d, applied.get(d.volume().volume().getUuid()))).toList();
            tx.executeWithoutResult(s -> {
                if (planner.pluginEnabled()) ioModes.record(vmUuid, recorded, applied);
                states.transition(vmUuid, State.Starting.name(), State.Running.name());
            });
            started = true;
            var stored = ioModes.stored(recorded.stream().map(d -> d.volume().volume().getUuid()).toList());
            return new StartResult(vms.inventory(states.findById(vmUuid).orElseThrow()),
                    recorded.stream().map(d -> stored.get(d.volume().volume().getUuid())).filter(java.util.Objects::nonNull).toList());
        } finally {
            if (!started) states.transition(vmUuid, State.Starting.name(), State.Stopped.name());
        }
    }

    /**
     * The agent took the start and gave no answer: the domain may be running. Stop it again, so the VM's
     * Stopped state is the truth and the answer can say nothing was changed; if that fails too, say so.
     */
    private ApiException undoStart(HostVO host, String vmUuid, AgentOutcomeUnknownException cause) {
        try {
            agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_STOP, new VmStopCmd(vmUuid), Map.class);
        } catch (ApiException stopFailed) {
            return new ApiException(ErrorCode.AGENT_UNREACHABLE, cause.description(), "The VM may be running on that host "
                    + "although it shows Stopped: undoing the start failed too (" + stopFailed.description() + "). "
                    + "Check the host (virsh list) and start or stop the VM again once its agent answers.");
        }
        return new ApiException(ErrorCode.AGENT_UNREACHABLE, cause.description(), "The server stopped the VM on that "
                + "host again, so nothing was changed; retry the start once the agent answers promptly.");
    }

    public VmInventory stop(Caller caller, String vmUuid) {
        VmInstanceVO vm = vms.owned(caller, vmUuid);
        HostVO host = hosts.find(vm.getHostUuid());
        claim(vm, State.Running, State.Stopping, "stop");
        boolean stopped = false;
        try {
            agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_STOP, new VmStopCmd(vmUuid), Map.class);
            states.transition(vmUuid, State.Stopping.name(), State.Stopped.name());
            stopped = true;
            return vms.inventory(states.findById(vmUuid).orElseThrow());
        } finally {
            if (!stopped) states.transition(vmUuid, State.Stopping.name(), State.Running.name());
        }
    }

    /** Attach a volume: hot-plug with a decision when the VM runs; a stopped VM gets it at its next start. */
    public AttachResult attach(Caller caller, String volumeUuid, String vmUuid, java.util.function.Function<VolumeVO, Object> inventory) {
        VolumeVO vol = volumeService.owned(caller, volumeUuid);
        VmInstanceVO vm = vms.owned(caller, vmUuid);
        if (vol.getVmInstanceUuid() != null) {
            throw ApiException.conflict("volume " + volumeUuid + " is already attached to VM " + vol.getVmInstanceUuid() + ".",
                    "Detach it first, or attach another volume.");
        }
        int deviceId = volumes.findByVmInstanceUuidOrderByDeviceId(vmUuid).stream()
                .mapToInt(v -> v.getDeviceId() == null ? 0 : v.getDeviceId()).max().orElse(-1) + 1;
        if (vm.getState() == State.Stopped) {
            tx.executeWithoutResult(s -> volumes.findById(volumeUuid).orElseThrow().attachTo(vmUuid, deviceId));
            return new AttachResult(inventory.apply(volumes.findById(volumeUuid).orElseThrow()), null);
        }
        if (vm.getState() != State.Running) {
            throw ApiException.conflict("VM " + vmUuid + " is " + vm.getState() + ".", "Wait until it is Running or Stopped.");
        }
        HostVO host = hosts.find(vm.getHostUuid());
        List<VolumeContext> ctx = facts.volumes(List.of(volumeUuid));
        Decided d = ioModes.decide(ctx, host.getUuid()).get(0);
        if (planner.pluginEnabled()) refuseIfAnyRefused(vmUuid, List.of(d));
        DiskResult r = agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_ATTACH_VOLUME,
                new VmAttachVolumeCmd(vmUuid, planner.plan(d, deviceId)), DiskResult.class);
        Decided recorded = AppliedDecisions.apply(d, r);
        tx.executeWithoutResult(s -> {
            volumes.findById(volumeUuid).orElseThrow().attachTo(vmUuid, deviceId);
            if (planner.pluginEnabled()) ioModes.record(vmUuid, List.of(recorded), Map.of(volumeUuid, r));
        });
        return new AttachResult(inventory.apply(volumes.findById(volumeUuid).orElseThrow()),
                ioModes.stored(List.of(volumeUuid)).get(volumeUuid));
    }

    private void claim(VmInstanceVO vm, State from, State to, String action) {
        if (states.transition(vm.getUuid(), from.name(), to.name()) == 0) {
            State now = states.findById(vm.getUuid()).map(VmInstanceVO::getState).orElse(vm.getState());
            throw ApiException.conflict("VM " + vm.getUuid() + " is " + now + ", so it cannot " + action + ".",
                    "A VM starts from Stopped and stops from Running; wait for the current operation to finish.");
        }
    }

    /** With onUnsatisfied = fail: store the refusals, and refuse the start naming the volume and the failed check. */
    private void refuseIfAnyRefused(String vmUuid, List<Decided> decided) {
        List<Decided> refused = decided.stream().filter(d -> d.decision().refused()).toList();
        if (refused.isEmpty()) return;
        ioModes.record(vmUuid, refused, Map.of());
        Decided first = refused.get(0);
        VolumeVO v = first.volume().volume();
        Check failed = first.decision().firstFailure();
        throw new ApiException(ErrorCode.IO_MODE_REFUSED,
                "volume " + v.getName() + " (" + v.getUuid() + ") cannot run " + first.decision().requested().wire()
                + ": check " + failed.check() + " failed: " + failed.message(),
                "Fix what the check names, choose another kvm/vm.ioMode for the volume or its primary storage, or set"
                + " kvm/vm.ioMode.onUnsatisfied to fallback.");
    }
}
