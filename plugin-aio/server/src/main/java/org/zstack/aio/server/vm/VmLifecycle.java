package org.zstack.aio.server.vm;

import org.springframework.stereotype.Service;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.api.VmStopCmd;
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
import org.zstack.aio.server.iomode.DiskPlan;
import org.zstack.aio.server.iomode.DiskPlanner;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.server.metrics.IoModeMetrics;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * VM start and stop, each one {@link VmOperation} run by {@link VmOperationRunner}. A start asks {@link DiskPlanner}
 * for its disks (decided in constant queries), sends them to the agent, and has the plan record the applied decisions
 * only when the agent succeeded: a refused, failed or unreachable start leaves the VM stopped and its stored decisions
 * as they were (a refusal by policy stores the refusal itself).
 */
@Service
public class VmLifecycle {

    public record StartResult(VmInventory inventory, List<DecisionRecord> ioModeDecisions) {
    }

    private final VmService vms;
    private final HostService hosts;
    private final DiskPlanner disks;
    private final AgentClient agent;
    private final VmOperationRunner runner;
    private final IoModeMetrics metrics;

    public VmLifecycle(VmService vms, HostService hosts, DiskPlanner disks, AgentClient agent, VmOperationRunner runner,
                       IoModeMetrics metrics) {
        this.vms = vms;
        this.hosts = hosts;
        this.disks = disks;
        this.agent = agent;
        this.runner = runner;
        this.metrics = metrics;
    }

    /** Starts the VM; its duration goes to {@code aio_vm_start_seconds{outcome}}. */
    public StartResult start(Caller caller, String vmUuid) {
        long t0 = System.nanoTime();
        boolean ok = false;
        try {
            StartResult r = run(caller, vmUuid, Start::new);
            ok = true;
            return r;
        } finally {
            metrics.vmStart(java.time.Duration.ofNanos(System.nanoTime() - t0), ok);
        }
    }

    public VmInventory stop(Caller caller, String vmUuid) {
        return run(caller, vmUuid, Stop::new);
    }

    private <A, R> R run(Caller caller, String vmUuid, Function<VmInstanceVO, Transition<A, R>> kind) {
        VmInstanceVO vm = vms.owned(caller, vmUuid);
        Transition<A, R> t = kind.apply(vm);
        OperationLeases.Operation op = runner.claim(vm, t.from, t.during, t.action);
        t.op = op;
        return runner.run(caller, op, t);
    }

    /**
     * A start or stop: {@code from → during} claimed, the agent asked on the VM's host, {@code during → to} at the
     * end; put back to {@code from} when the agent did nothing.
     */
    private abstract class Transition<A, R> implements VmOperation<A, R> {

        final VmInstanceVO vm;
        final HostVO host;
        final State from;
        final State during;
        final State to;
        final String action;
        private final String auditAction;
        /** set once claimed, before the runner calls any step */
        OperationLeases.Operation op;

        Transition(VmInstanceVO vm, State from, State during, State to, String action, String auditAction) {
            this.vm = vm;
            this.host = hosts.find(vm.getHostUuid());
            this.from = from;
            this.during = during;
            this.to = to;
            this.action = action;
            this.auditAction = auditAction;
        }

        @Override
        public RuntimeException notDone(RuntimeException e) {
            runner.transition(op, during, from);
            return e;
        }

        @Override
        public End end() {
            return End.transition(during, to, host.getUuid(), action);
        }

        @Override
        public AuditEntry audit() {
            return new AuditEntry(auditAction, "VmInstanceVO", vm.getUuid(), vm.getName(), from.name(), to.name());
        }

        @Override
        public List<String> hosts() {
            return List.of(host.getUuid());
        }

        VmInventory inventory() {
            return vms.inventory(runner.current(vm.getUuid()));
        }
    }

    /** The disks decided and sent; the plan's decisions recorded with what the agent applied. */
    private final class Start extends Transition<VmStartRsp, StartResult> {

        private DiskPlan plan;
        private List<DecisionRecord> stored;

        Start(VmInstanceVO vm) {
            super(vm, State.Stopped, State.Starting, State.Running, "start", "StartVmInstance");
        }

        @Override
        public VmStartRsp send() {
            plan = disks.forStart(vm.getUuid(), host);
            return agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_START,
                    new VmStartCmd(vm.getUuid(), vm.getName(), vm.getMemorySize(), vm.getCpuNum(), plan.disks(),
                            vm.getBoot(), vm.getAccel()), VmStartRsp.class);
        }

        /**
         * The agent took the start and gave no answer: the domain may be running. Stop it again, so the VM's Stopped
         * state is the truth and the answer can say nothing was changed; if that fails too, say so.
         */
        @Override
        public RuntimeException outcomeUnknown(AgentOutcomeUnknownException cause) {
            ApiException answer;
            try {
                agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_STOP, new VmStopCmd(vm.getUuid()), Map.class);
                answer = new ApiException(ErrorCode.AGENT_UNREACHABLE, cause.description(), "The server stopped the VM "
                        + "on that host again, so nothing was changed; retry the start once the agent answers promptly.");
            } catch (ApiException stopFailed) {
                answer = new ApiException(ErrorCode.AGENT_UNREACHABLE, cause.description(), "The VM may be running on "
                        + "that host although it shows Stopped: undoing the start failed too (" + stopFailed.description()
                        + "). Check the host (virsh list) and start or stop the VM again once its agent answers.");
            }
            return notDone(answer);
        }

        @Override
        public void store(VmStartRsp rsp) {
            stored = plan.record(rsp.disks());
        }

        @Override
        public StartResult answer(VmStartRsp rsp) {
            return new StartResult(inventory(), stored);
        }
    }

    /** The domain stopped; the tracker then drops its running disks. */
    private final class Stop extends Transition<Object, VmInventory> {

        Stop(VmInstanceVO vm) {
            super(vm, State.Running, State.Stopping, State.Stopped, "stop", "StopVmInstance");
        }

        @Override
        public Object send() {
            return agent.call(host.getManagementIp(), host.getAgentPort(), AgentPaths.VM_STOP, new VmStopCmd(vm.getUuid()), Map.class);
        }

        /**
         * An agent that took the stop and did not answer in time may still carry it out: the VM goes Unknown (the
         * tracker settles it from libvirt) and the answer says so instead of claiming nothing changed.
         */
        @Override
        public RuntimeException outcomeUnknown(AgentOutcomeUnknownException e) {
            runner.transition(op, during, State.Unknown);
            return new ApiException(e.code(), "VM " + vm.getUuid() + " is now Unknown: " + e.description(),
                    "The server reads the VM's state from its host (within 15 s of the agent answering again); "
                    + "GET the VM to see it settle to Running or Stopped before retrying.");
        }

        @Override
        public void store(Object answer) {
            // nothing but the state, which the end changes
        }

        @Override
        public VmInventory answer(Object answer) {
            return inventory();
        }
    }
}
