package org.zstack.aio.server.vm;

import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;
import org.mockito.Mockito;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentOutcomeUnknownException;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VmInstanceVO.State;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * The one skeleton of every VM operation ({@link VmOperationRunner}): what reaches the agent, the database and the
 * tracker on success, agent failure, an agent that took the command and did not answer, a refused claim, and a last
 * transaction run again. Mocked state repository, real retries and leases; no Spring, no database.
 */
class VmOperationRunnerTest {

    private final RunnerParts parts = new RunnerParts();
    private final VmStateRepository states = parts.states;
    private final VmOperationRunner runner = parts.runner;
    private final Caller admin = new Caller("acc", "admin", true, "s");
    private final VmInstanceVO vm = new VmInstanceVO("vm-1", "web", "host-a", 64L << 20, 1, "acc");

    /** An operation that records each step the runner calls, in order. */
    final class Steps implements VmOperation<String, String> {
        final List<String> calls = new ArrayList<>();
        RuntimeException sendFails;
        VmOperation.End end;
        final RuntimeException notDoneAnswer = new IllegalStateException("put back");
        final RuntimeException unknownAnswer = new IllegalStateException("now Unknown");

        @Override
        public String send() {
            calls.add("send");
            if (sendFails != null) throw sendFails;
            return "agent-answer";
        }

        @Override
        public RuntimeException outcomeUnknown(AgentOutcomeUnknownException e) {
            calls.add("outcomeUnknown:" + e.description());
            return unknownAnswer;
        }

        @Override
        public RuntimeException notDone(RuntimeException e) {
            calls.add("notDone:" + e.getMessage());
            return notDoneAnswer;
        }

        @Override
        public void store(String answer) {
            calls.add("store:" + answer);
        }

        @Override
        public End end() {
            return end;
        }

        @Override
        public AuditEntry audit() {
            return new AuditEntry("StartVmInstance", "VmInstanceVO", "vm-1", "web", "Stopped", "Running");
        }

        @Override
        public String answer(String answer) {
            calls.add("answer:" + answer);
            return "done:" + answer;
        }

        @Override
        public List<String> hosts() {
            return List.of("host-a", "host-b");
        }
    }

    private OperationLeases.Operation claimed() {
        when(states.claim(eq("vm-1"), eq("Stopped"), eq("Starting"), any(), anyString())).thenReturn(1);
        return runner.claim(vm, State.Stopped, State.Starting, "start");
    }

    @Test
    void aDoneOperationStoresEndsAuditsOnceTellsEachHostAndReleasesItsLease() {
        OperationLeases.Operation op = claimed();
        assertThat(parts.leases.inFlight("vm-1")).as("the claim holds a lease").isTrue();
        when(states.transition("vm-1", "Starting", "Running", op.token())).thenReturn(1);
        Steps steps = new Steps();
        steps.end = VmOperation.End.transition(State.Starting, State.Running, "host-a", "start");

        assertThat(runner.run(admin, op, steps)).isEqualTo("done:agent-answer");

        assertThat(steps.calls).containsExactly("send", "store:agent-answer", "answer:agent-answer");
        verify(states).transition("vm-1", "Starting", "Running", op.token());
        verify(parts.audit).record(eq(admin), any(AuditEntry.class));
        ArgumentCaptor<Object> events = ArgumentCaptor.forClass(Object.class);
        verify(parts.events, times(2)).publishEvent(events.capture());
        assertThat(events.getAllValues()).containsExactly(new VmOperationDone("host-a"), new VmOperationDone("host-b"));
        assertThat(parts.leases.inFlight("vm-1")).as("the lease ends with the operation").isFalse();
        verify(states, never()).outcomeOverSettled(anyString(), anyString(), anyString(), anyString());
    }

    @Test
    void anAgentThatFailedPutsTheVmBackAndStoresNothing() {
        OperationLeases.Operation op = claimed();
        Steps steps = new Steps();
        steps.sendFails = new ApiException(ErrorCode.AGENT_FAILED, "qemu refused", "details");

        assertThatThrownBy(() -> runner.run(admin, op, steps)).isSameAs(steps.notDoneAnswer);

        assertThat(steps.calls).containsExactly("send", "notDone:qemu refused");
        assertThat(parts.transactions).as("no last transaction").hasValue(0);
        verify(parts.audit, never()).record(any(), any());
        verify(parts.events, never()).publishEvent((Object) any());
        assertThat(parts.leases.inFlight("vm-1")).isFalse();
    }

    @Test
    void anAgentThatTookTheCommandAndDidNotAnswerIsAskedForWhatToSayNotToPutBack() {
        OperationLeases.Operation op = claimed();
        Steps steps = new Steps();
        steps.sendFails = new AgentOutcomeUnknownException("no answer within 120 s", "d");

        assertThatThrownBy(() -> runner.run(admin, op, steps)).isSameAs(steps.unknownAnswer);

        assertThat(steps.calls).containsExactly("send", "outcomeUnknown:no answer within 120 s");
        assertThat(parts.transactions).hasValue(0);
        verify(parts.events, never()).publishEvent((Object) any());
        assertThat(parts.leases.inFlight("vm-1")).isFalse();
    }

    @Test
    void aRefusedClaimEndsItsLeaseAndAnswersWithTheVmAsItIsNow() {
        when(states.claim(eq("vm-1"), eq("Stopped"), eq("Starting"), any(), anyString())).thenReturn(0);
        VmInstanceVO now = new VmInstanceVO("vm-1", "web", "host-a", 64L << 20, 1, "acc");
        now.setState(State.Running);
        when(states.findById("vm-1")).thenReturn(Optional.of(now));

        assertThatThrownBy(() -> runner.claim(vm, State.Stopped, State.Starting, "start"))
                .isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo(ErrorCode.CONFLICT))
                .hasMessage("VM vm-1 is Running, so it cannot start.");
        assertThat(parts.leases.inFlight("vm-1")).as("a refused claim holds no lease").isFalse();
        verify(states).held(eq("vm-1"), anyString());
    }

    /** A claim whose commit went unacknowledged (the database node died) runs again, finds its own token: claimed. */
    @Test
    void aClaimRunAgainAfterItsCommitWasLostIsOurs() {
        when(states.claim(eq("vm-1"), eq("Stopped"), eq("Starting"), any(), anyString()))
                .thenThrow(RunnerParts.conflict()).thenReturn(0);
        when(states.held(eq("vm-1"), anyString())).thenReturn(1L);

        OperationLeases.Operation op = runner.claim(vm, State.Stopped, State.Starting, "start");

        verify(states, times(2)).claim(eq("vm-1"), eq("Stopped"), eq("Starting"), any(), eq(op.token()));
        assertThat(parts.leases.inFlight("vm-1")).isTrue();
    }

    /**
     * The last transaction failed after its work (a conflict, rolled back): it runs again as a whole, the agent is
     * not asked again, and the end that the first run's change committed is not audited twice.
     */
    @Test
    void aLastTransactionRunAgainNeverRepeatsTheAgentCallNorTheAuditRow() {
        OperationLeases.Operation op = claimed();
        // first run: the change matches its row; the commit is refused. Second run: the row no longer matches (a
        // retried commit that had gone through), and the token says it was this operation's
        when(states.transition("vm-1", "Starting", "Running", op.token())).thenReturn(1, 0);
        when(states.held("vm-1", op.token())).thenReturn(1L);
        parts.conflicts.set(1);
        Steps steps = new Steps();
        steps.end = VmOperation.End.transition(State.Starting, State.Running, "host-a", "start");

        assertThat(runner.run(admin, op, steps)).isEqualTo("done:agent-answer");

        assertThat(steps.calls).containsExactly("send", "store:agent-answer", "answer:agent-answer", "store:agent-answer",
                "answer:agent-answer");
        assertThat(parts.transactions).hasValue(2);
        // once in the refused run (rolled back with it), not in the run that committed
        verify(parts.audit, times(1)).record(eq(admin), any(AuditEntry.class));
        verify(parts.events, times(2)).publishEvent((Object) any());
        verify(states, never()).outcomeOverSettled(anyString(), anyString(), anyString(), anyString());
    }

    /** The tracker settled the VM while the agent worked (the lease lapsed): the agent's newer answer is written. */
    @Test
    void anEndAfterTheTrackerSettledTheVmWritesTheAgentsAnswerWithItsReason() {
        OperationLeases.Operation op = claimed();
        when(states.transition("vm-1", "Starting", "Running", op.token())).thenReturn(0);
        when(states.held("vm-1", op.token())).thenReturn(0L);
        Steps steps = new Steps();
        steps.end = VmOperation.End.transition(State.Starting, State.Running, "host-a", "start");

        runner.run(admin, op, steps);

        InOrder order = Mockito.inOrder(states, parts.audit);
        order.verify(states).outcomeOverSettled(eq("vm-1"), eq("host-a"), eq("Running"),
                Mockito.contains("the agent's answer to the start came after: Running."));
        order.verify(parts.audit).record(eq(admin), any(AuditEntry.class));
    }

    /** A hot-plug holds its volume's claim, not the VM's: no lease, no state change, no audit row of the runner's. */
    @Test
    void anOperationWithoutAClaimStoresAndAnswersWithoutEndingAnything() {
        Steps steps = new Steps();

        assertThat(runner.run(steps)).isEqualTo("done:agent-answer");

        assertThat(steps.calls).containsExactly("send", "store:agent-answer", "answer:agent-answer");
        verify(parts.audit, never()).record(any(), any());
        verify(states, never()).transition(anyString(), anyString(), anyString(), anyString());
        verify(parts.events, times(2)).publishEvent((Object) any());
    }
}
