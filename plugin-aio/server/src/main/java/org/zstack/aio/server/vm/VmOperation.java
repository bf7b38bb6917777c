package org.zstack.aio.server.vm;

import org.zstack.aio.server.agent.AgentOutcomeUnknownException;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.inventory.VmInstanceVO.State;

import java.util.List;

/**
 * What one VM operation (start, stop, hot-plug, live migration) does at each step of {@link VmOperationRunner#run};
 * the runner alone fixes their order. {@code A} is the agent's answer, {@code R} the operation's.
 */
interface VmOperation<A, R> {

    /** The agent call, and before it whatever may still refuse the operation (the disks decided, say). */
    A send();

    /** The agent took the command and gave no answer: it may have carried it out. Returns what to throw. */
    default RuntimeException outcomeUnknown(AgentOutcomeUnknownException e) {
        return e;
    }

    /** {@link #send} failed and the host changed nothing: put the VM back as it was. Returns what to throw. */
    default RuntimeException notDone(RuntimeException e) {
        return e;
    }

    /** In the last transaction, before the end: what the agent did, stored. */
    void store(A answer);

    /** The VM's change that ends the operation; null when it changes no VM state (a hot-plug). */
    default End end() {
        return null;
    }

    /** The audit row, written with the end when the end is this operation's own (once, however often it is run). */
    default AuditEntry audit() {
        return null;
    }

    /** The answer, read in the last transaction after the end. */
    R answer(A answer);

    /** The hosts whose domains changed: the tracker reads their live disks at once ({@link VmOperationDone}). */
    List<String> hosts();

    /**
     * The compare-and-set on the operation's token that ends it, and what is written instead when the tracker settled
     * the VM first ({@code to} on {@code hostUuid}, with {@code settledReason}): see {@link OperationLeases#endedNow}.
     */
    record End(String hostUuid, State to, String settledReason, Change change) {

        @FunctionalInterface
        interface Change {
            int apply(VmStateRepository states, OperationLeases.Operation op);
        }

        /** A start or stop: {@code from → to} on the VM's host. */
        static End transition(State from, State to, String hostUuid, String action) {
            return new End(hostUuid, to, "the VM was settled from libvirt while its " + action + " was in flight (its "
                    + "node's lease lapsed); the agent's answer to the " + action + " came after: " + to + ".",
                    (states, op) -> states.transition(op.vmUuid(), from.name(), to.name(), op.token()));
        }

        /** A live migration: Running on the destination. */
        static End migratedTo(String destUuid) {
            return new End(destUuid, State.Running, "the VM was settled from libvirt while its migration was in flight "
                    + "(its node's lease lapsed); the source agent answered after: it runs on host " + destUuid + ".",
                    (states, op) -> states.endMigration(op.vmUuid(), destUuid, op.token()));
        }
    }
}
