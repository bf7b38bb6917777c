package org.zstack.aio.server.tracker;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.VmListRsp;
import org.zstack.aio.server.inventory.VmInstanceVO.State;
import org.zstack.aio.server.agent.DiskTargetNames;

import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ReconcilerTest {

    static final LocalDateTime NOW = LocalDateTime.of(2026, 1, 1, 12, 0);

    static List<Reconciler.Change> run(State state, LocalDateTime lease, String domainState, boolean inFlightHere) {
        Map<String, VmListRsp.Domain> domains = domainState == null ? Map.of()
                : Map.of("vm", new VmListRsp.Domain("vm", domainState, List.of()));
        return Reconciler.reconcile("h", List.of(new Reconciler.Row("vm", state, 7, lease)), domains, NOW, u -> inFlightHere);
    }

    static State to(State state, LocalDateTime lease, String domainState) {
        List<Reconciler.Change> c = run(state, lease, domainState, false);
        return c.isEmpty() ? null : c.get(0).to();
    }

    @Test
    void runningWithoutADomainOrWithAShutOffOneIsStopped() {
        assertThat(to(State.Running, null, null)).isEqualTo(State.Stopped);
        assertThat(to(State.Running, null, "shutoff")).isEqualTo(State.Stopped);
        assertThat(to(State.Running, null, "crashed")).isEqualTo(State.Stopped);
        assertThat(to(State.Running, null, "running")).isNull();
        assertThat(to(State.Running, null, "paused")).as("a paused QEMU still runs").isNull();
    }

    @Test
    void stoppedWithARunningDomainIsAdopted() {
        assertThat(to(State.Stopped, null, "running")).isEqualTo(State.Running);
        assertThat(run(State.Stopped, null, "running", false).get(0).reason()).startsWith("adopted");
        assertThat(to(State.Stopped, null, "shutoff")).isNull();
        assertThat(to(State.Stopped, null, null)).isNull();
    }

    @Test
    void transitionalStatesAreSettledOnlyOnceTheirLeaseLapsed() {
        for (State s : List.of(State.Starting, State.Stopping, State.Migrating)) {
            assertThat(to(s, NOW.plusSeconds(1), "running")).as(s + " leased").isNull();
            assertThat(to(s, NOW.minusSeconds(1), "running")).as(s + " lapsed, running").isEqualTo(State.Running);
            assertThat(to(s, NOW.minusSeconds(1), null)).as(s + " lapsed, gone").isEqualTo(State.Stopped);
            assertThat(to(s, null, "shutoff")).as(s + " without lease").isEqualTo(State.Stopped);
        }
    }

    @Test
    void unknownIsSettledFromLibvirtUnlessThisNodeStillRunsTheOperation() {
        assertThat(to(State.Unknown, null, "running")).isEqualTo(State.Running);
        assertThat(to(State.Unknown, null, null)).isEqualTo(State.Stopped);
        assertThat(run(State.Unknown, null, null, true)).isEmpty();
        assertThat(run(State.Starting, null, null, true)).isEmpty();
    }

    @Test
    void aChangeCarriesTheVersionItWasReadAt() {
        assertThat(run(State.Running, null, null, false).get(0).version()).isEqualTo(7);
    }

    @Test
    void virtioTargetsMapToDeviceIds() {
        assertThat(DiskTargetNames.deviceId("vda")).isZero();
        assertThat(DiskTargetNames.deviceId("vdz")).isEqualTo(25);
        assertThat(DiskTargetNames.deviceId("vdaa")).isEqualTo(26);
        assertThat(DiskTargetNames.deviceId("sda")).isEqualTo(-1);
        assertThat(DiskTargetNames.deviceId(null)).isEqualTo(-1);
        assertThat(DiskTargetNames.deviceId("vdb")).isEqualTo(1);
        assertThat(DiskTargetNames.deviceId("vdzz")).isEqualTo(701);
        assertThat(DiskTargetNames.deviceId("vdaaa")).isEqualTo(702);
    }

    /** An interrupted migration from h to "dest": {@code destination} null = the destination did not answer. */
    static List<Reconciler.Change> migration(State state, String sourceDomain, String destDomain, boolean destAnswers) {
        Map<String, VmListRsp.Domain> here = sourceDomain == null ? Map.of()
                : Map.of("vm", new VmListRsp.Domain("vm", sourceDomain, List.of()));
        Map<String, Map<String, VmListRsp.Domain>> dests = !destAnswers ? Map.of() : Map.of("dest", destDomain == null
                ? Map.of() : Map.of("vm", new VmListRsp.Domain("vm", destDomain, List.of())));
        return Reconciler.reconcile("h", List.of(new Reconciler.Row("vm", state, 7, null, "dest")), here, dests, NOW, u -> false);
    }

    @Test
    void anInterruptedMigrationSettlesWhereLibvirtRunsTheDomain() {
        Reconciler.Change onSource = migration(State.Migrating, "running", "running", true).get(0);
        assertThat(onSource.to()).isEqualTo(State.Running);
        assertThat(onSource.hostUuid()).as("libvirt never switched over: still the source").isEqualTo("h");

        Reconciler.Change onDest = migration(State.Migrating, null, "running", true).get(0);
        assertThat(onDest.to()).isEqualTo(State.Running);
        assertThat(onDest.hostUuid()).isEqualTo("dest");
        assertThat(onDest.reason()).contains("destination runs it");

        Reconciler.Change nowhere = migration(State.Migrating, "shutoff", null, true).get(0);
        assertThat(nowhere.to()).isEqualTo(State.Stopped);
        assertThat(nowhere.hostUuid()).isEqualTo("h");

        assertThat(migration(State.Unknown, null, "running", true).get(0).hostUuid())
                .as("Unknown after a migration still asks the destination").isEqualTo("dest");
    }

    @Test
    void anInterruptedMigrationWhoseDestinationDoesNotAnswerIsUnknownNotMigrating() {
        Reconciler.Change c = migration(State.Migrating, null, null, false).get(0);
        assertThat(c.to()).isEqualTo(State.Unknown);
        assertThat(c.hostUuid()).as("the row keeps naming the destination").isNull();
        assertThat(migration(State.Unknown, null, null, false)).as("stays Unknown, nothing to write").isEmpty();
        assertThat(migration(State.Migrating, "running", null, false).get(0).to())
                .as("the source still runs it: no need to hear from the destination").isEqualTo(State.Running);
    }

    @Test
    void aMigrationUnderALiveLeaseIsLeftToItsNode() {
        List<Reconciler.Change> c = Reconciler.reconcile("h", List.of(new Reconciler.Row("vm", State.Migrating, 7,
                NOW.plusSeconds(5), "dest")), Map.of(), Map.of(), NOW, u -> false);
        assertThat(c).isEmpty();
    }
}
