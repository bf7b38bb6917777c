package org.zstack.aio.server.vm;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Service;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.VmMigrateCmd;
import org.zstack.aio.agent.api.VmMigrateRsp;
import org.zstack.aio.server.account.AccountService;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.agent.AgentOutcomeUnknownException;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.Inventories.VmInventory;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VmInstanceVO.State;
import org.zstack.aio.server.iomode.DiskPlanner;
import org.zstack.aio.server.iomode.MigrationPlan;
import org.zstack.aio.server.metrics.IoModeMetrics;

import java.time.Duration;
import java.util.List;

/**
 * {"migrateVm":{"hostUuid"}}: a Running VM moves live (the SOURCE agent migrates the domain to the destination's
 * libvirtd, as its agent reported it, with every disk's driver decided for the DESTINATION); a Stopped VM just
 * changes host (its next start decides there). Every check runs before anything moves; a migration libvirt refuses
 * leaves the VM Running on the source with its stored decisions unchanged; the destination's decisions are stored
 * only once the VM runs there. The live move is a {@link VmOperation} run by {@link VmOperationRunner}.
 */
@Service
public class VmMigration {

    private final VmService vms;
    private final HostService hosts;
    private final DiskPlanner disks;
    private final AgentClient agent;
    private final VmOperationRunner runner;
    private final IoModeMetrics metrics;
    /** How long a live migration may run before the source agent aborts it (the VM then stays on the source). */
    private final Duration migrationTimeout;
    private static final Duration ANSWER_MARGIN = Duration.ofSeconds(30);

    public VmMigration(VmService vms, HostService hosts, DiskPlanner disks, AgentClient agent, VmOperationRunner runner,
                       IoModeMetrics metrics, @Value("${aio.migration.timeout:PT30M}") Duration migrationTimeout) {
        if (migrationTimeout.isNegative() || migrationTimeout.isZero()) {
            throw new IllegalArgumentException("aio.migration.timeout must be positive, e.g. PT30M; it is " + migrationTimeout);
        }
        this.migrationTimeout = migrationTimeout;
        this.vms = vms;
        this.hosts = hosts;
        this.disks = disks;
        this.agent = agent;
        this.runner = runner;
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
        MigrationPlan plan = disks.forMigration(vmUuid, dest);
        String blocker = MigrationTargets.blocker(hostUuid, dest.getName(), plan.decided(), plan.refusal(),
                disks.enforcesRefusals());
        if (blocker != null) {
            throw new ApiException(ErrorCode.IO_MODE_REFUSED, blocker + ".", "Nothing was changed: the VM stays "
                    + (state == State.Running ? "running " : "") + "on its host. Fix what the check names, pick another "
                    + "host, or set kvm/vm.ioMode.onUnsatisfied to fallback.");
        }
        long t0 = System.nanoTime();
        boolean ok = false;
        String kind = state == State.Running ? "live" : "cold";
        try {
            VmInventory out = state == State.Running ? live(caller, vm, dest, plan) : cold(caller, vm, dest);
            ok = true;
            return out;
        } finally {
            metrics.vmMigration(kind, Duration.ofNanos(System.nanoTime() - t0), ok);
        }
    }

    /** A stopped VM: only its host changes (compare-and-set on the version read); nothing runs, nothing is decided yet. */
    private VmInventory cold(Caller caller, VmInstanceVO vm, HostVO dest) {
        runner.changeAudited(caller, new AuditEntry("MigrateVm", "VmInstanceVO", vm.getUuid(), vm.getName(),
                vm.getHostUuid(), dest.getUuid()), states -> {
            if (states.moveStopped(vm.getUuid(), vm.getStateVersion(), dest.getUuid()) == 0) {
                throw ApiException.conflict("VM " + vm.getUuid() + " changed while it was being moved.",
                        "Read the VM and retry; nothing was changed.");
            }
        });
        return runner.readBack(vm.getUuid(), vms::inventory);
    }

    private VmInventory live(Caller caller, VmInstanceVO vm, HostVO dest, MigrationPlan plan) {
        String vmUuid = vm.getUuid();
        HostVO source = hosts.find(vm.getHostUuid());
        String destLibvirt = hosts.libvirtUri(dest.getUuid());
        if (destLibvirt == null) {
            throw ApiException.conflict("host " + dest.getName() + " (" + dest.getUuid() + ") never reported its libvirt URI.",
                    "Reconnect the host so its agent reports it, then retry; nothing was changed.");
        }
        VmMigrateCmd cmd = new VmMigrateCmd(vmUuid, destLibvirt, migrationUri(dest), plan.drivers(),
                Math.max(1, migrationTimeout.toSeconds()));
        // the token tells this claim, committed with its acknowledgement lost, from another's (VmOperationRunner.claim)
        OperationLeases.Operation op = runner.claimMigration(vm, dest.getUuid(), now -> ApiException.conflict(
                now.getState() == State.Running
                        ? "VM " + vmUuid + " changed while its migration was being planned (it now runs on host " + now.getHostUuid() + ")."
                        : "VM " + vmUuid + " is " + now.getState() + ", so it cannot migrate.",
                "Read the VM and retry; nothing was changed."));
        runner.run(caller, op, new Live(op, vm, source, dest, plan, cmd));
        // read back in a unit of its own: the move is done, a lost connection here must not answer 503
        return runner.readBack(vmUuid, vms::inventory);
    }

    /**
     * The source agent's migration. Refused or failed: libvirt left the domain on the source, so the VM is Running
     * there again and the answer quotes libvirt. No answer: Unknown, still naming the destination, for the tracker
     * to ask both hosts where the domain runs.
     */
    private final class Live implements VmOperation<VmMigrateRsp, Void> {

        private final OperationLeases.Operation op;
        private final VmInstanceVO vm;
        private final HostVO source;
        private final HostVO dest;
        private final MigrationPlan plan;
        private final VmMigrateCmd cmd;

        Live(OperationLeases.Operation op, VmInstanceVO vm, HostVO source, HostVO dest, MigrationPlan plan, VmMigrateCmd cmd) {
            this.op = op;
            this.vm = vm;
            this.source = source;
            this.dest = dest;
            this.plan = plan;
            this.cmd = cmd;
        }

        @Override
        public VmMigrateRsp send() {
            // the agent aborts the job at the limit; waiting longer means the answer, not a timeout, ends the call
            return agent.call(source.getManagementIp(), source.getAgentPort(), AgentPaths.VM_MIGRATE, cmd, VmMigrateRsp.class,
                    migrationTimeout.plus(ANSWER_MARGIN));
        }

        @Override
        public RuntimeException outcomeUnknown(AgentOutcomeUnknownException e) {
            runner.transition(op, State.Migrating, State.Unknown);
            return new ApiException(e.code(), "VM " + vm.getUuid() + " is now Unknown: " + e.description(),
                    "The server asks both hosts where the domain runs (within 15 s of the agents answering); GET the VM "
                    + "to see it settle on host " + source.getUuid() + " or " + dest.getUuid() + " before retrying.");
        }

        @Override
        public RuntimeException notDone(RuntimeException failure) {
            if (!(failure instanceof ApiException e)) return failure;
            runner.endMigration(op, source.getUuid());
            return new ApiException(e.code(), "VM " + vm.getUuid() + " could not migrate to host " + dest.getName() + " ("
                    + dest.getUuid() + "): " + e.description(), "The VM still runs on host " + source.getUuid()
                    + " with its disks and stored decisions unchanged. " + e.details());
        }

        @Override
        public void store(VmMigrateRsp rsp) {
            plan.record(rsp.disks(), dest.getName(), dest.getUuid(), source.getUuid());
        }

        @Override
        public End end() {
            return End.migratedTo(dest.getUuid());
        }

        @Override
        public AuditEntry audit() {
            return new AuditEntry("MigrateVm", "VmInstanceVO", vm.getUuid(), vm.getName(), source.getUuid(), dest.getUuid());
        }

        @Override
        public Void answer(VmMigrateRsp rsp) {
            return null;
        }

        @Override
        public List<String> hosts() {
            return List.of(source.getUuid(), dest.getUuid());
        }
    }

    /** Where QEMU streams memory: the destination's management address (IPv6 in brackets). */
    static String migrationUri(HostVO dest) {
        String ip = dest.getManagementIp();
        return "tcp://" + (ip.contains(":") ? "[" + ip + "]" : ip);
    }
}
