package org.zstack.aio.server.vm;

import org.junit.jupiter.api.Test;
import org.mockito.Mockito;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.VmMigrateCmd;
import org.zstack.aio.agent.api.VmMigrateRsp;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStartRsp;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.IoModeRefusal;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.agent.AgentClient;
import org.zstack.aio.server.agent.AgentOutcomeUnknownException;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.host.HostService;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.inventory.VmInstanceVO;
import org.zstack.aio.server.inventory.VmInstanceVO.State;
import org.zstack.aio.server.inventory.VolumeRepository;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.server.iomode.DiskPlan;
import org.zstack.aio.server.iomode.DiskPlanner;
import org.zstack.aio.server.iomode.MigrationPlan;
import org.zstack.aio.server.metrics.IoModeMetrics;
import org.zstack.aio.server.volume.VolumeService;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * Start, stop, hot-plug ({@link VmAttach}) and live migration ({@link VmMigration}) on a real {@link VmOperationRunner}
 * over mocked parts ({@link RunnerParts}), a mocked agent and mocked disk plans: what each sends, stores and leaves in
 * the VM's row on success, agent failure, and an agent that took the command without answering. No Spring.
 */
class VmOperationsTest {

    private final RunnerParts parts = new RunnerParts();
    private final VmStateRepository states = parts.states;
    private final VmService vms = Mockito.mock(VmService.class);
    private final HostService hosts = Mockito.mock(HostService.class);
    private final DiskPlanner disks = Mockito.mock(DiskPlanner.class);
    private final AgentClient agent = Mockito.mock(AgentClient.class);
    private final IoModeMetrics metrics = Mockito.mock(IoModeMetrics.class);
    private final VmLifecycle lifecycle = new VmLifecycle(vms, hosts, disks, agent, parts.runner, metrics);
    private final Caller admin = new Caller("acc", "admin", true, "s");
    private final HostVO hostA = host("host-a", "A", "10.0.0.1");
    private final HostVO hostB = host("host-b", "B", "10.0.0.2");
    private final DiskPlan plan = Mockito.mock(DiskPlan.class);
    private final List<DiskTO> planned = List.of(new DiskTO("vol-1", "/p/vol-1.qcow2", "qcow2", "file", 0, "none",
            List.of("io_uring", "threads")));

    private static HostVO host(String uuid, String name, String ip) {
        HostVO h = new HostVO(uuid, name, ip, 7070);
        h.setStatus("Connected");
        return h;
    }

    private VmInstanceVO vm(State state) {
        VmInstanceVO vm = new VmInstanceVO("vm-1", "web", "host-a", 64L << 20, 1, "acc");
        vm.setState(state);
        when(vms.owned(admin, "vm-1")).thenReturn(vm);
        when(states.findById("vm-1")).thenReturn(Optional.of(vm));
        when(hosts.find("host-a")).thenReturn(hostA);
        when(hosts.find("host-b")).thenReturn(hostB);
        return vm;
    }

    private void claimable(String from, String to) {
        when(states.claim(eq("vm-1"), eq(from), eq(to), any(), anyString())).thenReturn(1);
        when(states.transition(eq("vm-1"), anyString(), anyString(), anyString())).thenReturn(1);
    }

    // ---- start ------------------------------------------------------------------------------------------------

    @Test
    void aStartSendsThePlansDisksAndRecordsWhatTheAgentApplied() {
        vm(State.Stopped);
        claimable("Stopped", "Starting");
        when(disks.forStart("vm-1", hostA)).thenReturn(plan);
        when(plan.disks()).thenReturn(planned);
        List<DiskResult> applied = List.of(new DiskResult("vol-1", "threads", "none",
                List.of(new DiskResult.Attempt("io_uring", "refused"))));
        when(agent.call(eq("10.0.0.1"), eq(7070), eq(AgentPaths.VM_START), any(), eq(VmStartRsp.class)))
                .thenReturn(new VmStartRsp("vm-1", 42, applied));
        List<DecisionRecord> stored = List.of(Mockito.mock(DecisionRecord.class));
        when(plan.record(applied)).thenReturn(stored);

        VmLifecycle.StartResult r = lifecycle.start(admin, "vm-1");

        assertThat(r.ioModeDecisions()).isSameAs(stored);
        var cmd = org.mockito.ArgumentCaptor.forClass(VmStartCmd.class);
        verify(agent).call(eq("10.0.0.1"), eq(7070), eq(AgentPaths.VM_START), cmd.capture(), eq(VmStartRsp.class));
        assertThat(cmd.getValue().disks()).isEqualTo(planned);
        assertThat(cmd.getValue().vmUuid()).isEqualTo("vm-1");
        var order = inOrder(plan, states);
        order.verify(plan).record(applied);
        order.verify(states).transition(eq("vm-1"), eq("Starting"), eq("Running"), anyString());
        verify(metrics).vmStart(any(Duration.class), eq(true));
    }

    @Test
    void aStartTheAgentFailedLeavesTheVmStoppedAndTheDecisionsAsTheyWere() {
        vm(State.Stopped);
        claimable("Stopped", "Starting");
        when(disks.forStart("vm-1", hostA)).thenReturn(plan);
        ApiException failed = new ApiException(ErrorCode.AGENT_FAILED, "qemu: could not open disk", "d");
        when(agent.call(any(), Mockito.anyInt(), eq(AgentPaths.VM_START), any(), eq(VmStartRsp.class))).thenThrow(failed);

        assertThatThrownBy(() -> lifecycle.start(admin, "vm-1")).isSameAs(failed);

        verify(states).transition(eq("vm-1"), eq("Starting"), eq("Stopped"), anyString());
        verify(states, never()).transition(eq("vm-1"), eq("Starting"), eq("Running"), anyString());
        verify(plan, never()).record(any());
        verify(metrics).vmStart(any(Duration.class), eq(false));
    }

    @Test
    void aStartRefusedByTheIoModePolicyNeverReachesTheAgent() {
        vm(State.Stopped);
        claimable("Stopped", "Starting");
        ApiException refused = new ApiException(ErrorCode.IO_MODE_REFUSED, "volume v cannot run native", "fix it");
        when(disks.forStart("vm-1", hostA)).thenThrow(refused);

        assertThatThrownBy(() -> lifecycle.start(admin, "vm-1")).isSameAs(refused);

        verify(agent, never()).call(any(), Mockito.anyInt(), any(), any(), any());
        verify(states).transition(eq("vm-1"), eq("Starting"), eq("Stopped"), anyString());
    }

    @Test
    void aStartTheAgentTookWithoutAnsweringIsStoppedAgainAndSaysNothingChanged() {
        vm(State.Stopped);
        claimable("Stopped", "Starting");
        when(disks.forStart("vm-1", hostA)).thenReturn(plan);
        when(agent.call(any(), Mockito.anyInt(), eq(AgentPaths.VM_START), any(), eq(VmStartRsp.class)))
                .thenThrow(new AgentOutcomeUnknownException("the agent took /vm/start and did not answer within 60 s", "d"));

        assertThatThrownBy(() -> lifecycle.start(admin, "vm-1")).isInstanceOf(ApiException.class)
                .satisfies(e -> {
                    assertThat(((ApiException) e).code()).isEqualTo(ErrorCode.AGENT_UNREACHABLE);
                    assertThat(((ApiException) e).details()).startsWith("The server stopped the VM on that host again");
                });
        verify(agent).call(eq("10.0.0.1"), eq(7070), eq(AgentPaths.VM_STOP), eq(new VmStopCmd("vm-1")), eq(Map.class));
        verify(states).transition(eq("vm-1"), eq("Starting"), eq("Stopped"), anyString());
    }

    @Test
    void aStartWhoseUndoFailedTooSaysTheVmMayBeRunning() {
        vm(State.Stopped);
        claimable("Stopped", "Starting");
        when(disks.forStart("vm-1", hostA)).thenReturn(plan);
        when(agent.call(any(), Mockito.anyInt(), eq(AgentPaths.VM_START), any(), eq(VmStartRsp.class)))
                .thenThrow(new AgentOutcomeUnknownException("no answer", "d"));
        when(agent.call(any(), Mockito.anyInt(), eq(AgentPaths.VM_STOP), any(), eq(Map.class)))
                .thenThrow(new ApiException(ErrorCode.AGENT_UNREACHABLE, "connection refused", "d"));

        assertThatThrownBy(() -> lifecycle.start(admin, "vm-1")).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).details()).startsWith("The VM may be running on that host")
                        .contains("connection refused"));
    }

    @Test
    void aStartOfARunningVmIsRefusedBeforeAnythingIsPlanned() {
        vm(State.Running);
        when(states.claim(eq("vm-1"), eq("Stopped"), eq("Starting"), any(), anyString())).thenReturn(0);

        assertThatThrownBy(() -> lifecycle.start(admin, "vm-1")).isInstanceOf(ApiException.class)
                .hasMessage("VM vm-1 is Running, so it cannot start.");
        verify(disks, never()).forStart(any(), any());
        verify(agent, never()).call(any(), Mockito.anyInt(), any(), any(), any());
    }

    // ---- stop -------------------------------------------------------------------------------------------------

    @Test
    void aStopTheAgentTookWithoutAnsweringMakesTheVmUnknownAndSaysSo() {
        vm(State.Running);
        claimable("Running", "Stopping");
        when(agent.call(any(), Mockito.anyInt(), eq(AgentPaths.VM_STOP), any(), eq(Map.class)))
                .thenThrow(new AgentOutcomeUnknownException("no answer within 120 s", "d"));

        assertThatThrownBy(() -> lifecycle.stop(admin, "vm-1")).isInstanceOf(ApiException.class)
                .hasMessage("VM vm-1 is now Unknown: no answer within 120 s");
        verify(states).transition(eq("vm-1"), eq("Stopping"), eq("Unknown"), anyString());
        verify(states, never()).transition(eq("vm-1"), eq("Stopping"), eq("Running"), anyString());
    }

    @Test
    void aStoppedVmIsStoppedAndAudited() {
        vm(State.Running);
        claimable("Running", "Stopping");
        when(agent.call(any(), Mockito.anyInt(), eq(AgentPaths.VM_STOP), any(), eq(Map.class))).thenReturn(Map.of("existed", true));

        lifecycle.stop(admin, "vm-1");

        verify(states).transition(eq("vm-1"), eq("Stopping"), eq("Stopped"), anyString());
        verify(parts.audit).record(eq(admin), Mockito.argThat(e -> e.action().equals("StopVmInstance")));
    }

    // ---- hot-plug ---------------------------------------------------------------------------------------------

    private final VolumeService volumeService = Mockito.mock(VolumeService.class);
    private final VolumeRepository volumes = Mockito.mock(VolumeRepository.class);
    private final VmAttach attach = new VmAttach(vms, volumeService, volumes, hosts, disks, agent, parts.runner);

    private VolumeVO pluggable() {
        vm(State.Running);
        VolumeVO vol = new VolumeVO("vol-9", "data", "ps", "qcow2", 1L << 30, "full", "acc");
        when(volumeService.owned(admin, "vol-9")).thenReturn(vol);
        when(volumes.findById("vol-9")).thenReturn(Optional.of(vol));
        VolumeVO root = new VolumeVO("vol-0", "root", "ps", "qcow2", 1L << 30, "full", "acc");
        root.attachTo("vm-1", 0);
        VolumeVO data = new VolumeVO("vol-1", "d1", "ps", "qcow2", 1L << 30, "full", "acc");
        data.attachTo("vm-1", 3);
        when(volumes.findByVmInstanceUuidOrderByDeviceId("vm-1")).thenReturn(List.of(root, data));
        when(volumes.claimAttach(eq("vol-9"), any(), any())).thenReturn(1);
        when(agent.timeout()).thenReturn(Duration.ofSeconds(120));
        when(disks.forAttach("vm-1", hostA, "vol-9", 4)).thenReturn(plan);
        when(plan.disks()).thenReturn(planned);
        when(volumeService.inventories(any())).thenReturn(List.of(Mockito.mock(org.zstack.aio.server.volume.VolumeInventory.class)));
        return vol;
    }

    @Test
    void aHotPlugAttachesAfterTheLastDeviceAndRecordsWhatTheAgentApplied() {
        VolumeVO vol = pluggable();
        DiskResult applied = new DiskResult("vol-9", "io_uring", "none", List.of());
        when(agent.call(eq("10.0.0.1"), eq(7070), eq(AgentPaths.VM_ATTACH_VOLUME), any(), eq(DiskResult.class)))
                .thenReturn(applied);
        DecisionRecord stored = Mockito.mock(DecisionRecord.class);
        when(plan.recordPlugged(applied)).thenReturn(stored);

        VmAttach.AttachResult r = attach.attach(admin, "vol-9", "vm-1");

        assertThat(r.ioModeDecision()).isSameAs(stored);
        assertThat(vol.getVmInstanceUuid()).isEqualTo("vm-1");
        assertThat(vol.getDeviceId()).as("after the highest device id").isEqualTo(4);
        verify(agent).call(any(), Mockito.anyInt(), eq(AgentPaths.VM_ATTACH_VOLUME),
                eq(new VmAttachVolumeCmd("vm-1", planned.get(0))), eq(DiskResult.class));
        verify(volumes).releaseAttach("vol-9");
        verify(states, never()).claim(any(), any(), any(), any(), any());
    }

    @Test
    void aHotPlugTheAgentRefusedAttachesNothingAndReleasesTheVolume() {
        VolumeVO vol = pluggable();
        ApiException failed = new ApiException(ErrorCode.AGENT_FAILED, "libvirt refused the disk", "d");
        when(agent.call(any(), Mockito.anyInt(), eq(AgentPaths.VM_ATTACH_VOLUME), any(), eq(DiskResult.class))).thenThrow(failed);

        assertThatThrownBy(() -> attach.attach(admin, "vol-9", "vm-1")).isSameAs(failed);

        assertThat(vol.getVmInstanceUuid()).isNull();
        verify(plan, never()).recordPlugged(any());
        verify(volumes).releaseAttach("vol-9");
    }

    @Test
    void aSecondAttachOfTheSameVolumeIsRefusedBeforeTheAgent() {
        pluggable();
        when(volumes.claimAttach(eq("vol-9"), any(), any())).thenReturn(0);

        assertThatThrownBy(() -> attach.attach(admin, "vol-9", "vm-1")).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo(ErrorCode.CONFLICT));
        verify(agent, never()).call(any(), Mockito.anyInt(), any(), any(), any());
        verify(volumes, never()).releaseAttach(any());
    }

    // ---- live migration ---------------------------------------------------------------------------------------

    private final VmMigration migration = new VmMigration(vms, hosts, disks, agent, parts.runner, metrics, Duration.ofMinutes(30));
    private final MigrationPlan migrationPlan = Mockito.mock(MigrationPlan.class);
    private final List<VmMigrateCmd.DiskDriverTO> drivers = List.of(new VmMigrateCmd.DiskDriverTO("/p/vol-1.qcow2", "native", "none"));

    private void migratable() {
        vm(State.Running);
        when(disks.forMigration("vm-1", hostB)).thenReturn(migrationPlan);
        when(disks.enforcesRefusals()).thenReturn(true);
        when(migrationPlan.decided()).thenReturn(List.of());
        when(migrationPlan.drivers()).thenReturn(drivers);
        when(hosts.libvirtUri("host-b")).thenReturn("qemu+tcp://10.0.0.2/system");
        when(states.claimMigration(eq("vm-1"), Mockito.anyLong(), eq("host-b"), any(), anyString())).thenReturn(1);
        when(states.endMigration(eq("vm-1"), anyString(), anyString())).thenReturn(1);
    }

    @Test
    void aLiveMigrationAsksTheSourceAgentAndEndsRunningOnTheDestination() {
        migratable();
        List<VmMigrateCmd.DiskDriverTO> reported = List.of(new VmMigrateCmd.DiskDriverTO("vda", "native", "none"));
        when(agent.call(eq("10.0.0.1"), eq(7070), eq(AgentPaths.VM_MIGRATE), any(), eq(VmMigrateRsp.class), any()))
                .thenReturn(new VmMigrateRsp("vm-1", reported, 900));

        migration.migrate(admin, "vm-1", "host-b");

        var cmd = org.mockito.ArgumentCaptor.forClass(VmMigrateCmd.class);
        verify(agent).call(eq("10.0.0.1"), eq(7070), eq(AgentPaths.VM_MIGRATE), cmd.capture(), eq(VmMigrateRsp.class),
                eq(Duration.ofMinutes(30).plusSeconds(30)));
        assertThat(cmd.getValue().disks()).isEqualTo(drivers);
        assertThat(cmd.getValue().migrationUri()).isEqualTo("tcp://10.0.0.2");
        var order = inOrder(migrationPlan, states);
        order.verify(migrationPlan).record(reported, "B", "host-b", "host-a");
        order.verify(states).endMigration(eq("vm-1"), eq("host-b"), anyString());
        verify(parts.events).publishEvent(new VmOperationDone("host-a"));
        verify(parts.events).publishEvent(new VmOperationDone("host-b"));
    }

    @Test
    void aMigrationLibvirtRefusedLeavesTheVmRunningOnTheSource() {
        migratable();
        when(agent.call(any(), Mockito.anyInt(), eq(AgentPaths.VM_MIGRATE), any(), eq(VmMigrateRsp.class), any()))
                .thenThrow(new ApiException(ErrorCode.AGENT_FAILED, "unable to open disk: io_uring", "attempts"));

        assertThatThrownBy(() -> migration.migrate(admin, "vm-1", "host-b")).isInstanceOf(ApiException.class)
                .hasMessage("VM vm-1 could not migrate to host B (host-b): unable to open disk: io_uring");
        verify(states).endMigration(eq("vm-1"), eq("host-a"), anyString());
        verify(states, never()).endMigration(eq("vm-1"), eq("host-b"), anyString());
        verify(migrationPlan, never()).record(any(), any(), any(), any());
    }

    @Test
    void aMigrationWithoutAnAnswerMakesTheVmUnknown() {
        migratable();
        when(agent.call(any(), Mockito.anyInt(), eq(AgentPaths.VM_MIGRATE), any(), eq(VmMigrateRsp.class), any()))
                .thenThrow(new AgentOutcomeUnknownException("no answer", "d"));

        assertThatThrownBy(() -> migration.migrate(admin, "vm-1", "host-b")).isInstanceOf(ApiException.class)
                .hasMessage("VM vm-1 is now Unknown: no answer");
        verify(states).transition(eq("vm-1"), eq("Migrating"), eq("Unknown"), anyString());
        verify(states, never()).endMigration(any(), any(), any());
    }

    @Test
    void aMigrationTheCoreRefusesForTheDestinationIsRefusedBeforeTheClaim() {
        migratable();
        when(migrationPlan.refusal()).thenReturn(new IoModeRefusal("vol-1",
                "volume data (vol-1) cannot run io_uring on host B (host-b): check kernel failed: too old", "Choose another host"));

        assertThatThrownBy(() -> migration.migrate(admin, "vm-1", "host-b")).isInstanceOf(ApiException.class)
                .hasMessage("volume data (vol-1) cannot run io_uring on host B (host-b): check kernel failed: too old.")
                .satisfies(e -> assertThat(((ApiException) e).code()).isEqualTo(ErrorCode.IO_MODE_REFUSED));
        verify(states, never()).claimMigration(any(), Mockito.anyLong(), any(), any(), any());
        verify(agent, never()).call(any(), Mockito.anyInt(), any(), any(), any(), any());
    }
}
