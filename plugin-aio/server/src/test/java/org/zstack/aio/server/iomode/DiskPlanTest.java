package org.zstack.aio.server.iomode;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.VmMigrateCmd;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.server.inventory.PrimaryStorageVO;
import org.zstack.aio.server.inventory.VolumeVO;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Operation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a VM operation's plan sends and what it hands to the policy to store once the agent answered: the fold of the
 * agent's answer that used to live in the vm package (AppliedDecisions, VmMigration.applied). No Spring, no database.
 */
class DiskPlanTest {

    private static final IoModeDecider DECIDER = new IoModeDecider(IoModeRulesLoader.fromClasspath());
    private static final HostFacts GOOD = new HostFacts("h", Version.parse("6.1"), 0, Version.parse("8.2"), true,
            Version.parse("9.0"));

    /** The plugin's disks, and every record call as it was made. */
    static final class Recording implements DiskIoPolicy {
        final PluginDiskIo plugin = new PluginDiskIo(new org.zstack.aio.plugin.DiskIoModes(DECIDER.rules()), null, null);
        final List<List<Decided>> decided = new ArrayList<>();
        final List<Map<String, DiskResult>> applied = new ArrayList<>();
        final List<Operation> operations = new ArrayList<>();
        List<DecisionRecord> answer = List.of();

        @Override
        public void refuseIfRefused(String vmUuid, Operation operation, IoModeDecisions.Planned planned) {
        }

        @Override
        public DiskTO disk(Decided d, int deviceId) {
            return plugin.disk(d, deviceId);
        }

        @Override
        public List<DecisionRecord> record(String vmUuid, Operation operation, List<Decided> d, Map<String, DiskResult> a) {
            operations.add(operation);
            decided.add(d);
            applied.add(a);
            return answer;
        }
    }

    static Decided decided(String uuid, String installPath, int deviceId) {
        VolumeVO v = new VolumeVO(uuid, "data", "ps", "qcow2", 1L << 30, "full", "account");
        v.setImage(installPath, 1L << 30, 1L << 30);
        v.attachTo("vm", deviceId);
        VolumeContext ctx = new VolumeContext(v, new PrimaryStorageVO("ps", "p", "LocalStorage", "/p"));
        DecisionInput in = new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL,
                new VolumeFacts(uuid, "LocalStorage", "qcow2", "full", 1L << 30, 1L << 30, "none"), GOOD,
                new DecisionPolicy(OnUnsatisfied.FALLBACK, false));
        return new Decided(ctx, "none", DECIDER.decide(in));
    }

    final Recording policy = new Recording();
    final List<Decided> two = List.of(decided("root", "/p/root.qcow2", 0), decided("data", "/p/data.qcow2", 1));

    @Test
    void aStartSendsEachDiskAtItsPlaceAndFoldsTheAgentsRefusalIntoItsDecision() {
        DiskPlan plan = new DiskPlan("vm", two, policy, null);
        assertThat(plan.disks()).extracting(DiskTO::volumeUuid, DiskTO::deviceId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("root", 0), org.assertj.core.groups.Tuple.tuple("data", 1));

        DiskResult refused = new DiskResult("data", "native", "none", List.of(new DiskResult.Attempt("io_uring", "Invalid argument")));
        plan.record(List.of(new DiskResult("root", "io_uring", "none", List.of()), refused));

        List<Decided> stored = policy.decided.get(0);
        assertThat(stored.get(0)).as("no refusal: the decision as it was").isSameAs(two.get(0));
        assertThat(stored.get(1).decision().effectiveWire()).isEqualTo("native");
        assertThat(stored.get(1).decision().reason()).endsWith("At start libvirt/QEMU refused io_uring (Invalid argument), so native was applied.");
        assertThat(policy.applied.get(0)).containsOnlyKeys("root", "data").containsEntry("data", refused);
        assertThat(policy.operations).as("the record says which operation applied it").containsExactly(Operation.START);
    }

    @Test
    void anAgentThatReportedNoDisksStoresTheDecisionsUnchanged() {
        new DiskPlan("vm", two, policy, null).record(null);
        assertThat(policy.decided.get(0)).containsExactlyElementsOf(two);
        assertThat(policy.applied.get(0)).isEmpty();
    }

    @Test
    void aHotPlugSendsItsDiskAtItsDeviceIdAndRecordsTheAnswerUnderThePluggedVolume() {
        DiskPlan plan = new DiskPlan("vm", List.of(two.get(1)), policy, 7);
        assertThat(plan.disks()).singleElement().satisfies(d -> assertThat(d.deviceId()).isEqualTo(7));
        DiskResult answer = new DiskResult(null, "io_uring", "none", List.of());

        assertThat(plan.recordPlugged(answer)).as("nothing stored: no decision to show").isNull();
        assertThat(policy.applied.get(0)).containsExactly(Map.entry("data", answer));
        assertThat(policy.operations).containsExactly(Operation.ATTACH);
    }

    @Test
    void aMigrationSendsEachDisksDriverAndRecordsWhatTheDestinationReportsByTargetDev() {
        List<Decided> disks = new ArrayList<>(two);
        disks.add(decided("ceph", null, 2)); // no path to name it by: it keeps its driver
        MigrationPlan plan = new MigrationPlan("vm", new IoModeDecisions.Planned(disks, null), policy);
        assertThat(plan.drivers()).containsExactly(new VmMigrateCmd.DiskDriverTO("/p/root.qcow2", "io_uring", "none"),
                new VmMigrateCmd.DiskDriverTO("/p/data.qcow2", "io_uring", "none"));

        plan.record(List.of(new VmMigrateCmd.DiskDriverTO("vdb", "native", "none"),
                new VmMigrateCmd.DiskDriverTO("sda", "threads", "none")), "B", "b-uuid", "a-uuid");

        assertThat(policy.applied.get(0)).containsExactly(Map.entry("data", new DiskResult("data", "native", "none", List.of())));
        assertThat(policy.decided.get(0)).hasSize(3).allSatisfy(d -> assertThat(d.decision().reason())
                .contains("Decided for host B (b-uuid) when the VM migrated there from host a-uuid."));
        assertThat(policy.operations).containsExactly(Operation.MIGRATE);
    }
}
