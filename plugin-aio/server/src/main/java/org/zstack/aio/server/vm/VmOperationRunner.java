package org.zstack.aio.server.vm;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentOutcomeUnknownException;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.audit.AuditService;
import org.zstack.aio.server.db.UnitOfWork;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VmInstanceVO.State;

import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The one skeleton of every VM operation: claim (lease and token) → agent → one transaction for the last step (what
 * the agent did, the end, the audit row) → an event per host changed → the claim released. Start, stop, hot-plug and
 * live migration differ only in their {@link VmOperation}; the agent call is never repeated, the last transaction is,
 * as a whole (UnitOfWork), and the token makes a repeated claim or end recognise itself.
 */
@Component
public class VmOperationRunner {

    private final OperationLeases leases;
    private final VmStateRepository states;
    private final UnitOfWork work;
    private final TransactionTemplate tx;
    private final AuditService audit;
    private final ApplicationEventPublisher events;

    public VmOperationRunner(OperationLeases leases, VmStateRepository states, UnitOfWork work, TransactionTemplate tx,
                             AuditService audit, ApplicationEventPublisher events) {
        this.leases = leases;
        this.states = states;
        this.work = work;
        this.tx = tx;
        this.audit = audit;
        this.events = events;
    }

    /** Claims the VM for a start or stop: {@code from → to}, or 409 naming the state it is in. */
    OperationLeases.Operation claim(VmInstanceVO vm, State from, State to, String action) {
        return claim(vm, op -> states.claim(op.vmUuid(), from.name(), to.name(), leases.until(), op.token()),
                now -> ApiException.conflict("VM " + vm.getUuid() + " is " + now.getState() + ", so it cannot " + action + ".",
                        "A VM starts from Stopped and stops from Running; wait for the current operation to finish."));
    }

    /** Claims a Running VM for a live migration to {@code destUuid}, only at the version it was planned on. */
    OperationLeases.Operation claimMigration(VmInstanceVO vm, String destUuid, Function<VmInstanceVO, ApiException> refused) {
        return claim(vm, op -> states.claimMigration(op.vmUuid(), vm.getStateVersion(), destUuid, leases.until(), op.token()),
                refused);
    }

    /**
     * A compare-and-set with the operation's token: run again after a commit nobody acknowledged (the database node
     * died), it matches no row, and the token in the row says the claim is ours.
     */
    private OperationLeases.Operation claim(VmInstanceVO vm, ToIntFunction<OperationLeases.Operation> cas,
                                            Function<VmInstanceVO, ApiException> refused) {
        OperationLeases.Operation op = leases.begin(vm.getUuid());
        if (!work.idempotent(() -> cas.applyAsInt(op) == 1 || states.held(op.vmUuid(), op.token()) == 1)) {
            leases.end(op);
            throw refused.apply(work.idempotent(() -> states.findById(vm.getUuid()).orElse(vm)));
        }
        return op;
    }

    /** Runs a claimed VM's operation; the lease ends whatever happens. */
    <A, R> R run(Caller caller, OperationLeases.Operation op, VmOperation<A, R> steps) {
        try {
            return run(caller, op, steps, true);
        } finally {
            leases.end(op);
        }
    }

    /** Runs an operation that holds a claim of its own (a hot-plug's, on its volume) and changes no VM state. */
    <A, R> R run(VmOperation<A, R> steps) {
        return run(null, null, steps, false);
    }

    private <A, R> R run(Caller caller, OperationLeases.Operation op, VmOperation<A, R> steps, boolean ends) {
        A answer;
        try {
            answer = steps.send();
        } catch (AgentOutcomeUnknownException e) {
            throw steps.outcomeUnknown(e);
        } catch (RuntimeException e) {
            throw steps.notDone(e);
        }
        // the agent did it: from here on a failure leaves the claim to lapse, for the tracker to settle from libvirt
        R done = work.idempotent(() -> tx.execute(s -> {
            steps.store(answer);
            VmOperation.End end = ends ? steps.end() : null;
            if (end != null && leases.endedNow(op, end.change().apply(states, op), end.hostUuid(), end.to(), end.settledReason())) {
                audit.record(caller, steps.audit()); // commits with the change it records
            }
            return steps.answer(answer);
        }));
        steps.hosts().forEach(host -> events.publishEvent(new VmOperationDone(host)));
        return done;
    }

    /** Puts a claimed VM's state back, or marks it Unknown, under its token (a lapsed lease: nothing changes). */
    void transition(OperationLeases.Operation op, State from, State to) {
        work.idempotent(() -> states.transition(op.vmUuid(), from.name(), to.name(), op.token()));
    }

    /** Ends a migration that did not happen: the VM runs on {@code hostUuid} (the source) again. */
    void endMigration(OperationLeases.Operation op, String hostUuid) {
        work.idempotent(() -> states.endMigration(op.vmUuid(), hostUuid, op.token()));
    }

    /** A change without an agent (a stopped VM moved) and its audit row, in one transaction run as a unit. */
    void changeAudited(Caller caller, AuditEntry entry, Consumer<VmStateRepository> change) {
        work.idempotent(() -> tx.executeWithoutResult(s -> {
            change.accept(states);
            audit.record(caller, entry);
        }));
    }

    /** Runs {@code step} in one transaction, without retry (a stopped VM's attach). */
    void inTransaction(Runnable step) {
        tx.executeWithoutResult(s -> step.run());
    }

    /** The VM as it is now; inside the last transaction this is its answer, outside a unit of its own. */
    VmInstanceVO current(String vmUuid) {
        return states.findById(vmUuid).orElseThrow();
    }

    /** {@link #current} in a unit of its own: an operation that is done must not answer 503 for a lost connection. */
    <R> R readBack(String vmUuid, Function<VmInstanceVO, R> view) {
        return work.idempotent(() -> view.apply(current(vmUuid)));
    }
}
