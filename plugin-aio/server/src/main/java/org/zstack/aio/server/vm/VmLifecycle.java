package org.zstack.aio.server.vm;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.agent.AgentOutcomeUnknownException;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.audit.AuditService;
import org.zstack.aio.server.metrics.IoModeMetrics;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.Inventories.VmInventory;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VmInstanceVO.State;
import org.zstack.aio.server.inventory.VolumeRepository;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.iomode.IoModeService;
import org.zstack.aio.server.iomode.IoModeService.Decided;
import org.zstack.aio.server.iomode.IoModeService.StoredDecision;
import org.zstack.aio.server.volume.VolumeInventory;
import org.zstack.aio.server.volume.VolumeService;


import java.time.LocalDateTime;
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

    /** The attached volume, and its decision when it was hot-plugged (null: the VM was stopped). */
    public record AttachResult(VolumeInventory inventory, StoredDecision ioModeDecision) {
    }

    private final VmService vms;
    private final VmStateRepository states;
    private final HostService hosts;
    private final IoModeService ioModes;
    private final DiskIoPolicy diskIo;
    private final AgentClient agent;
    private final VolumeRepository volumes;
    private final TransactionTemplate tx;
    private final VolumeService volumeService;
    private final UnitOfWork work;
    private final OperationLeases leases;
    private final ApplicationEventPublisher events;
    private final AuditService audit;
    private final IoModeMetrics metrics;

    public VmLifecycle(VmService vms, VmStateRepository states, HostService hosts, IoModeService ioModes, DiskIoPolicy diskIo,
                AgentClient agent, VolumeRepository volumes, TransactionTemplate tx, VolumeService volumeService,
                UnitOfWork work, OperationLeases leases, ApplicationEventPublisher events, AuditService audit,
                IoModeMetrics metrics) {
        this.work = work;
        this.leases = leases;
        this.events = events;
        this.audit = audit;
        this.metrics = metrics;
        this.vms = vms;
        this.states = states;
        this.hosts = hosts;
        this.ioModes = ioModes;
        this.diskIo = diskIo;
        this.agent = agent;
        this.volumes = volumes;
        this.tx = tx;
        this.volumeService = volumeService;
    }

    /** Starts the VM; its duration goes to {@code aio_vm_start_seconds{outcome}}. */
    public StartResult start(Caller caller, String vmUuid) {
        long t0 = System.nanoTime();
        boolean ok = false;
        try {
            StartResult r = startTimed(caller, vmUuid);
            ok = true;
            return r;
        } finally {
            metrics.vmStart(java.time.Duration.ofNanos(System.nanoTime() - t0), ok);
        }
    }

    private StartResult startTimed(Caller caller, String vmUuid) {
        VmInstanceVO vm = vms.owned(caller, vmUuid);
        HostVO host = hosts.find(vm.getHostUuid());
        OperationLeases.Operation op = claim(vm, State.Stopped, State.Starting, "start");
        boolean sent = false;
        try {
            List<Decided> decided = ioModes.decideForVm(vmUuid, host.getUuid(), List.of());
            diskIo.refuseIfAnyRefused(vmUuid, decided);
            List<DiskTO> disks = new ArrayList<>(decided.size());
            for (int i = 0; i < decided.size(); i++) disks.add(diskIo.disk(decided.get(i), i));
            VmStartRsp rsp;
            try {
                rsp = agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_START,
                        new VmStartCmd(vmUuid, vm.getName(), vm.getMemorySize(), vm.getCpuNum(), disks,
                                vm.getBoot(), vm.getAccel()), VmStartRsp.class);
            } catch (AgentOutcomeUnknownException e) {
                throw undoStart(host, vmUuid, e); // Stopped, the answer says whether the undo reached the host
            }
            // the domain runs from here on: a failure below leaves Starting under a lapsing lease, which the
            // tracker settles from libvirt (Running), never Stopped with a QEMU left behind
            sent = true;
            Map<String, DiskResult> applied = new HashMap<>();
            if (rsp.disks() != null) rsp.disks().forEach(r -> applied.put(r.volumeUuid(), r));
            List<Decided> recorded = decided.stream().map(d -> AppliedDecisions.apply(d, applied.get(d.volumeUuid()))).toList();
            // the agent call above is never repeated; only this database step is, as a whole
            // (the VM read back belongs to the unit too: a lost connection after the commit must not turn a done
            // start into a 503)
            StartResult done = work.idempotent(() -> tx.execute(s -> {
                List<StoredDecision> out = diskIo.record(vmUuid, recorded, applied);
                if (ended(op, host.getUuid(), State.Starting, State.Running, "start")) {
                    audit.record(caller, new AuditEntry("StartVmInstance", "VmInstanceVO", vmUuid, vm.getName(),
                            State.Stopped.name(), State.Running.name()));
                }
                return new StartResult(vms.inventory(states.findById(vmUuid).orElseThrow()), out);
            }));
            events.publishEvent(new VmOperationDone(host.getUuid()));
            return done;
        } catch (RuntimeException e) {
            if (!sent) work.idempotent(() -> states.transition(vmUuid, State.Starting.name(), State.Stopped.name(), op.token()));
            throw e;
        } finally {
            leases.end(op);
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
        OperationLeases.Operation op = claim(vm, State.Running, State.Stopping, "stop");
        boolean sent = false;
        try {
            callAgent(op, State.Stopping, () -> agent.call(host.getManagementIp(), host.getAgentPort(),
                    AgentPaths.VM_STOP, new VmStopCmd(vmUuid), Map.class));
            sent = true;
            VmInventory done = work.idempotent(() -> tx.execute(s -> { // the audit row commits with the change it records
                if (ended(op, host.getUuid(), State.Stopping, State.Stopped, "stop")) {
                    audit.record(caller, new AuditEntry("StopVmInstance", "VmInstanceVO", vmUuid, vm.getName(),
                            State.Running.name(), State.Stopped.name()));
                }
                return vms.inventory(states.findById(vmUuid).orElseThrow());
            }));
            events.publishEvent(new VmOperationDone(host.getUuid())); // the tracker drops its running disks
            return done;
        } catch (RuntimeException e) {
            if (!sent) work.idempotent(() -> states.transition(vmUuid, State.Stopping.name(), State.Running.name(), op.token()));
            throw e;
        } finally {
            leases.end(op);
        }
    }

    /**
     * An agent that took the command and did not answer in time may still carry it out: the VM goes Unknown (the
     * tracker settles it from libvirt) and the answer says so instead of claiming nothing changed.
     */
    private <T> T callAgent(OperationLeases.Operation op, State during, java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (AgentOutcomeUnknownException e) {
            String vmUuid = op.vmUuid();
            states.transition(vmUuid, during.name(), State.Unknown.name(), op.token());
            throw new ApiException(e.code(), "VM " + vmUuid + " is now Unknown: " + e.description(),
                    "The server reads the VM's state from its host (within 15 s of the agent answering again); "
                    + "GET the VM to see it settle to Running or Stopped before retrying.");
        }
    }

    /** Attach a volume: hot-plug with a decision when the VM runs; a stopped VM gets it at its next start. */
    public AttachResult attach(Caller caller, String volumeUuid, String vmUuid) {
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
            return new AttachResult(inventory(volumeUuid), null);
        }
        if (vm.getState() != State.Running) {
            throw ApiException.conflict("VM " + vmUuid + " is " + vm.getState() + ".", "Wait until it is Running or Stopped.");
        }
        HostVO host = hosts.find(vm.getHostUuid());
        // one attach per volume at a time, across management nodes: a claim in the volume's row
        if (volumes.claimAttach(volumeUuid, LocalDateTime.now(), LocalDateTime.now().plus(agent.timeout()).plusSeconds(30)) == 0) {
            throw ApiException.conflict("volume " + volumeUuid + " is being attached by another request, or is attached.",
                    "Wait for that attach to finish, then read the volume.");
        }
        try {
            List<Decided> disks = ioModes.decideForVm(vmUuid, host.getUuid(), List.of(volumeUuid));
            Decided d = disks.get(disks.size() - 1);
            diskIo.refuseIfAnyRefused(vmUuid, List.of(d));
            DiskResult r = agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_ATTACH_VOLUME,
                    new VmAttachVolumeCmd(vmUuid, diskIo.disk(d, deviceId)), DiskResult.class);
            Decided recorded = AppliedDecisions.apply(d, r);
            // the hot-plug above is never repeated; storing its outcome is, as a whole. If that still fails, the disk
            // is live in the guest anyway: the tracker finds it in the domain and records it attached (VmTracker)
            List<StoredDecision> stored = work.idempotent(() -> tx.execute(s -> {
                volumes.findById(volumeUuid).orElseThrow().attachTo(vmUuid, deviceId);
                return diskIo.record(vmUuid, List.of(recorded), Map.of(volumeUuid, r));
            }));
            events.publishEvent(new VmOperationDone(host.getUuid()));
            return new AttachResult(inventory(volumeUuid), stored.isEmpty() ? null : stored.get(0));
        } finally {
            volumes.releaseAttach(volumeUuid);
        }
    }

    private VolumeInventory inventory(String volumeUuid) {
        return volumeService.inventories(List.of(volumes.findById(volumeUuid).orElseThrow())).get(0);
    }

    /**
     * Claims the VM for one operation. A compare-and-set with the operation's token: run again after a commit nobody
     * acknowledged (the database node died), it matches no row, and the token in the row says the claim is ours.
     */
    private OperationLeases.Operation claim(VmInstanceVO vm, State from, State to, String action) {
        OperationLeases.Operation op = leases.begin(vm.getUuid());
        if (!work.idempotent(() -> states.claim(op.vmUuid(), from.name(), to.name(), leases.until(), op.token()) == 1
                || states.held(op.vmUuid(), op.token()) == 1)) {
            leases.end(op);
            State now = states.findById(vm.getUuid()).map(VmInstanceVO::getState).orElse(vm.getState());
            throw ApiException.conflict("VM " + vm.getUuid() + " is " + now + ", so it cannot " + action + ".",
                    "A VM starts from Stopped and stops from Running; wait for the current operation to finish.");
        }
        return op;
    }

    /** The operation's last step, in the caller's transaction: true unless it already committed (OperationLeases#endedNow). */
    private boolean ended(OperationLeases.Operation op, String hostUuid, State from, State to, String action) {
        return leases.endedNow(op, states.transition(op.vmUuid(), from.name(), to.name(), op.token()), hostUuid, to,
                "the VM was settled from libvirt while its " + action + " was in flight (its node's lease lapsed); the "
                + "agent's answer to the " + action + " came after: " + to + ".");
    }
}
