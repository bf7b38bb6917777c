package org.zstack.aio.server.vm;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.VmMigrateCmd;
import org.zstack.aio.agent.api.VmMigrateRsp;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.agent.AgentOutcomeUnknownException;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.audit.AuditService;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.Inventories.VmInventory;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VmInstanceVO.State;
import org.zstack.aio.server.iomode.IoModeService;
import org.zstack.aio.server.iomode.IoModeService.Decided;
import org.zstack.aio.server.metrics.IoModeMetrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {"migrateVm":{"hostUuid"}}: a Running VM moves live (the SOURCE agent migrates the domain to the destination's
 * libvirtd, as its agent reported it, with every disk's driver decided for the DESTINATION); a Stopped VM just
 * changes host (its next start decides there). Every check runs before anything moves; a migration libvirt refuses
 * leaves the VM Running on the source with its stored decisions unchanged; the destination's decisions are stored
 * only once the VM runs there.
 */
@Service
public class VmMigration {

    private final VmService vms;
    private final VmStateRepository states;
    private final HostService hosts;
    private final IoModeService ioModes;
    private final DiskIoPolicy diskIo;
    private final AgentClient agent;
    private final TransactionTemplate tx;
    private final UnitOfWork work;
    private final OperationLeases leases;
    private final ApplicationEventPublisher events;
    private final AuditService audit;
    private final IoModeMetrics metrics;
    /** How long a live migration may run before the source agent aborts it (the VM then stays on the source). */
    private final Duration migrationTimeout;
    private static final Duration ANSWER_MARGIN = Duration.ofSeconds(30);

    public VmMigration(VmService vms, VmStateRepository states, HostService hosts, IoModeService ioModes,
                       DiskIoPolicy diskIo, AgentClient agent, TransactionTemplate tx, UnitOfWork work,
                       OperationLeases leases, ApplicationEventPublisher events, AuditService audit, IoModeMetrics metrics,
                       @Value("${aio.migration.timeout:PT30M}") Duration migrationTimeout) {
        if (migrationTimeout.isNegative() || migrationTimeout.isZero()) {
            throw new IllegalArgumentException("aio.migration.timeout must be positive, e.g. PT30M; it is " + migrationTimeout);
        }
        this.migrationTimeout = migrationTimeout;
        this.vms = vms;
        this.states = states;
        this.hosts = hosts;
        this.ioModes = ioModes;
        this.diskIo = diskIo;
        this.agent = agent;
        this.tx = tx;
        this.work = work;
        this.leases = leases;
        this.events = events;
        this.audit = audit;
        this.metrics = metrics;
    }

    public VmInventory migrate(Caller caller, String vmUuid, String hostUuid) {
        AccountService.requireAdmin(caller, "migrate VMs");
        VmInstanceVO vm = vms.owned(caller, vmUuid);
        if (hostUuid == null) {
            throw ApiException.badRequest("field 'hostUuid' is missing.", "Name the destination host: "
                    + "{\"migrateVm\":{\"hostUuid\":\"<uuid>\"}}; GET /v1/vm-instances/" + vmUuid + "/migration-target-hosts lists them.");
        }
        HostVO dest = hosts.find(hostUuid);
        if (dest.getUuid().equals(vm.getHostUuid())) {
            throw ApiException.badRequest("VM " + vmUuid + " is already on host " + hostUuid + ".", "Pick another host.");
        }
        if (!"Connected".equals(dest.getStatus())) {
            throw ApiException.conflict("host " + dest.getName() + " (" + hostUuid + ") is " + dest.getStatus() + ".",
                    "Migrate to a Connected host, or reconnect this one first; nothing was changed.");
        }
        State state = vm.getState();
        if (state != State.Running && state != State.Stopped) {
            throw ApiException.conflict("VM " + vmUuid + " is " + state + ", so it cannot migrate.",
                    "A VM migrates when Running (live) or Stopped; wait for the current operation to finish.");
        }
        List<Decided> decided = ioModes.decideForVm(vmUuid, hostUuid, List.of());
        String blocker = MigrationTargets.blocker(hostUuid, dest.getName(), decided, diskIo.enforcesRefusals());
        if (blocker != null) {
            throw new ApiException(ErrorCode.IO_MODE_REFUSED, blocker + ".", "Nothing was changed: the VM stays "
                    + (state == State.Running ? "running " : "") + "on its host. Fix what the check names, pick another "
                    + "host, or set kvm/vm.ioMode.onUnsatisfied to fallback.");
        }
        long t0 = System.nanoTime();
        boolean ok = false;
        String kind = state == State.Running ? "live" : "cold";
        try {
            VmInventory out = state == State.Running ? live(caller, vm, dest, decided) : cold(caller, vm, dest);
            ok = true;
            return out;
        } finally {
            metrics.vmMigration(kind, Duration.ofNanos(System.nanoTime() - t0), ok);
        }
    }

    /** A stopped VM: only its host changes (compare-and-set on the version read); nothing runs, nothing is decided yet. */
    private VmInventory cold(Caller caller, VmInstanceVO vm, HostVO dest) {
        work.idempotent(() -> tx.executeWithoutResult(s -> {
            if (states.moveStopped(vm.getUuid(), vm.getStateVersion(), dest.getUuid()) == 0) {
                throw ApiException.conflict("VM " + vm.getUuid() + " changed while it was being moved.",
                        "Read the VM and retry; nothing was changed.");
            }
            audit.record(caller, new AuditEntry("MigrateVm", "VmInstanceVO", vm.getUuid(), vm.getName(),
                    vm.getHostUuid(), dest.getUuid()));
        }));
        return work.idempotent(() -> vms.inventory(states.findById(vm.getUuid()).orElseThrow()));
    }

    private VmInventory live(Caller caller, VmInstanceVO vm, HostVO dest, List<Decided> decided) {
        String vmUuid = vm.getUuid();
        HostVO source = hosts.find(vm.getHostUuid());
        String destLibvirt = hosts.libvirtUri(dest.getUuid());
        if (destLibvirt == null) {
            throw ApiException.conflict("host " + dest.getName() + " (" + dest.getUuid() + ") never reported its libvirt URI.",
                    "Reconnect the host so its agent reports it, then retry; nothing was changed.");
        }
        List<VmMigrateCmd.DiskDriverTO> drivers = new ArrayList<>(decided.size());
        for (Decided d : decided) {
            DiskTO disk = diskIo.disk(d, 0);
            if (disk.installPath() == null) continue; // nothing to name it by: the domain keeps its driver
            drivers.add(new VmMigrateCmd.DiskDriverTO(disk.installPath(),
                    disk.ioCandidates().isEmpty() ? null : disk.ioCandidates().get(0), disk.cache()));
        }
        OperationLeases.Operation op = leases.begin(vmUuid);
        // the token tells this claim, committed with its acknowledgement lost, from another's (VmLifecycle.claim)
        if (!work.idempotent(() -> states.claimMigration(vmUuid, vm.getStateVersion(), dest.getUuid(), leases.until(), op.token()) == 1
                || states.held(vmUuid, op.token()) == 1)) {
            leases.end(op);
            VmInstanceVO now = work.idempotent(() -> states.findById(vmUuid).orElse(vm));
            throw ApiException.conflict(now.getState() == State.Running
                    ? "VM " + vmUuid + " changed while its migration was being planned (it now runs on host " + now.getHostUuid() + ")."
                    : "VM " + vmUuid + " is " + now.getState() + ", so it cannot migrate.",
                    "Read the VM and retry; nothing was changed.");
        }
        try {
            VmMigrateRsp rsp = send(op, source, dest, new VmMigrateCmd(vmUuid, destLibvirt, migrationUri(dest), drivers,
                    Math.max(1, migrationTimeout.toSeconds())));
            List<Decided> recorded = decided.stream().map(d -> d.withDecision(d.decision().withNote("Decided for host "
                    + dest.getName() + " (" + dest.getUuid() + ") when the VM migrated there from host " + source.getUuid() + ".")))
                    .toList();
            Map<String, DiskResult> applied = applied(decided, rsp);
            work.idempotent(() -> tx.executeWithoutResult(s -> {
                diskIo.record(vmUuid, recorded, applied);
                if (leases.endedNow(op, states.endMigration(vmUuid, dest.getUuid(), op.token()), dest.getUuid(),
                        State.Running, "the VM was settled from libvirt while its migration was in flight (its node's "
                        + "lease lapsed); the source agent answered after: it runs on host " + dest.getUuid() + ".")) {
                    audit.record(caller, new AuditEntry("MigrateVm", "VmInstanceVO", vmUuid, vm.getName(),
                            source.getUuid(), dest.getUuid()));
                }
            }));
            events.publishEvent(new VmOperationDone(source.getUuid()));
            events.publishEvent(new VmOperationDone(dest.getUuid()));
            // read back in a unit of its own: the move is done, a lost connection here must not answer 503
            return work.idempotent(() -> vms.inventory(states.findById(vmUuid).orElseThrow()));
        } finally {
            leases.end(op);
        }
    }

    /**
     * The source agent's migration. Refused or failed: libvirt left the domain on the source, so the VM is Running
     * there again and the answer quotes libvirt. No answer: Unknown, still naming the destination, for the tracker
     * to ask both hosts where the domain runs.
     */
    private VmMigrateRsp send(OperationLeases.Operation op, HostVO source, HostVO dest, VmMigrateCmd cmd) {
        String vmUuid = op.vmUuid();
        try {
            // the agent aborts the job at the limit; waiting longer means the answer, not a timeout, ends the call
            return agent.call(source.getManagementIp(), source.getAgentPort(), AgentPaths.VM_MIGRATE, cmd, VmMigrateRsp.class,
                    migrationTimeout.plus(ANSWER_MARGIN));
        } catch (AgentOutcomeUnknownException e) {
            work.idempotent(() -> states.transition(vmUuid, State.Migrating.name(), State.Unknown.name(), op.token()));
            throw new ApiException(e.code(), "VM " + vmUuid + " is now Unknown: " + e.description(),
                    "The server asks both hosts where the domain runs (within 15 s of the agents answering); GET the VM "
                    + "to see it settle on host " + source.getUuid() + " or " + dest.getUuid() + " before retrying.");
        } catch (ApiException e) {
            work.idempotent(() -> states.endMigration(vmUuid, source.getUuid(), op.token()));
            throw new ApiException(e.code(), "VM " + vmUuid + " could not migrate to host " + dest.getName() + " ("
                    + dest.getUuid() + "): " + e.description(), "The VM still runs on host " + source.getUuid()
                    + " with its disks and stored decisions unchanged. " + e.details());
        }
    }

    /** What the destination libvirtd reports per disk, by volume (its target dev names the device id). */
    private static Map<String, DiskResult> applied(List<Decided> decided, VmMigrateRsp rsp) {
        Map<Integer, String> byDevice = new HashMap<>();
        for (Decided d : decided) {
            Integer id = d.volume().volume().getDeviceId();
            if (id != null) byDevice.put(id, d.volumeUuid());
        }
        Map<String, DiskResult> out = new HashMap<>();
        for (VmMigrateCmd.DiskDriverTO disk : rsp.disks()) {
            String volume = byDevice.get(DiskTargetNames.deviceId(disk.disk()));
            if (volume != null) out.put(volume, new DiskResult(volume, disk.io(), disk.cache(), List.of()));
        }
        return out;
    }

    /** Where QEMU streams memory: the destination's management address (IPv6 in brackets). */
    static String migrationUri(HostVO dest) {
        String ip = dest.getManagementIp();
        return "tcp://" + (ip.contains(":") ? "[" + ip + "]" : ip);
    }
}
