package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The use case both platforms go through, against a platform in memory. */
class DiskIoModesTest {

    private static final DiskIoModes IO_MODES = new DiskIoModes(IoModeRulesLoader.fromClasspath());
    private static final HostRef H1 = new HostRef("h1", "kvm1");
    private static final HostRef H2 = new HostRef("h2", "kvm2");

    private static HostIoFacts.Builder capable(String uuid) {
        return HostIoFacts.builder(uuid).kernel(Version.parse("6.1.0")).ioUringDisabled(0).qemu(Version.parse("8.2.0"))
                .qemuIoUring(true, null).libvirt(Version.parse("9.0.0"));
    }

    private static VolumeIoFacts.Builder volume(String uuid, String storageUuid, String type) {
        return VolumeIoFacts.builder(uuid).name("disk-" + uuid).storage(storageUuid, type)
                .image(type.equals("SharedBlock") ? "raw" : "qcow2", "full").sizes(10L << 30, 10L << 30).cacheMode("none");
    }

    private static FakePorts twoDisksOnOneHost(HostIoFacts host, AgentProfile agent) {
        return new FakePorts().host(host, agent)
                .volume(volume("root", "ps1", "LocalStorage").build())
                .volume(volume("data", "ps2", "NFS").build());
    }

    @Test
    void aStartDecidesEveryDiskInOrderAndAsksEachPortOnce() {
        FakePorts ports = twoDisksOnOneHost(capable("h1").build(), AgentProfile.STANDALONE)
                .override("ps2", IoModeConfig.IO_MODE, "native").override("root", IoModeConfig.IO_MODE, "io_uring");
        DiskPlan plan = IO_MODES.plan(DiskRequest.start("vm1", H1, Arrays.asList("root", "data", "gone")), ports);
        assertThat(plan.refused()).isFalse();
        assertThat(plan.disks()).extracting(PlannedDisk::volumeUuid).containsExactly("root", "data");
        assertThat(plan.disk("root").set()).isEqualTo(IoMode.IO_URING);
        assertThat(plan.disk("root").record().getSource()).isEqualTo("VolumeVO");
        assertThat(plan.disk("data").set()).isEqualTo(IoMode.NATIVE);
        assertThat(plan.disk("data").record().getSource()).isEqualTo("PrimaryStorageVO");
        assertThat(plan.disk("data").candidates()).containsExactly(IoMode.NATIVE, IoMode.THREADS);
        assertThat(plan.records()).extracting(DecisionRecord::getOperation).containsOnly("start");
        assertThat(plan.records()).extracting(DecisionRecord::getVmInstanceUuid).containsOnly("vm1");
        assertThat(ports.asked).containsExactlyInAnyOrder("volumes", "configs", "host", "agent", "figures");
    }

    /** The host's facts of each storage path reach the decision: every filesystem and loop rule of the rules file. */
    @ParameterizedTest(name = "{1} on {0} (loop {2}): {3}, rule {4}")
    @CsvSource({
            "btrfs, native,   false, threads, btrfs-native-odirect",
            "btrfs, io_uring, false, threads, btrfs-io_uring-odirect",  // native is ruled out on btrfs too
            "zfs,   io_uring, false, native,  zfs-io_uring",
            "cifs,  io_uring, false, native,  cifs-io_uring-kernel-5.15",
            "smb3,  io_uring, false, native,  cifs-io_uring-kernel-5.15",
            "ext4,  io_uring, true,  native,  loop-io_uring",
    })
    void theStoragePathsFactsReachTheDecision(String fs, String asked, boolean loop, String runs, String rule) {
        HostIoFacts host = capable("h1").kernel(Version.parse("6.1.0"))
                .storage(new StorageIoFacts("ps1", "/zstack_ps", fs, loop, true, null)).build();
        FakePorts ports = new FakePorts().host(host, AgentProfile.STANDALONE)
                .volume(volume("root", "ps1", "LocalStorage").build()).override("root", IoModeConfig.IO_MODE, asked);
        PlannedDisk d = IO_MODES.plan(DiskRequest.start("vm1", H1, Collections.singletonList("root")), ports).disk("root");
        assertThat(d.decision().effectiveWire()).isEqualTo(runs);
        assertThat(d.record().getChecks()).anySatisfy(c -> {
            assertThat(c.getCheck()).isEqualTo("known-bad:" + rule);
            assertThat(c.isPassed()).isFalse();
        });
        // the same volume on another storage path of the host: the rule does not fire
        HostIoFacts elsewhere = capable("h1").storage(new StorageIoFacts("ps9", "/other", fs, loop, true, null)).build();
        FakePorts other = new FakePorts().host(elsewhere, AgentProfile.STANDALONE)
                .volume(volume("root", "ps1", "LocalStorage").build()).override("root", IoModeConfig.IO_MODE, asked);
        assertThat(IO_MODES.plan(DiskRequest.start("vm1", H1, Collections.singletonList("root")), other).disk("root")
                .decision().effectiveWire()).isEqualTo(asked);
    }

    @Test
    void withFailTheFirstRefusedDiskStopsTheStartInTheCoresOneSentence() {
        FakePorts ports = twoDisksOnOneHost(capable("h1").ioUringDisabled(2).build(), AgentProfile.STANDALONE)
                .override("data", IoModeConfig.IO_MODE, "io_uring");
        ports.globals.put(IoModeConfig.ON_UNSATISFIED, "fail");
        DiskPlan plan = IO_MODES.plan(DiskRequest.start("vm1", H1, Arrays.asList("root", "data")), ports);
        assertThat(plan.refused()).isTrue();
        assertThat(plan.refusal().volumeUuid()).isEqualTo("data");
        assertThat(plan.refusal().sentence()).startsWith("volume disk-data (data) cannot run io_uring: check io_uring-")
                .contains("kernel.io_uring_disabled is 2");
        assertThat(plan.refusal().whatToDo()).contains("kvm/vm.ioMode.onUnsatisfied to fallback");
        assertThat(plan.refusedRecords()).extracting(DecisionRecord::getVolumeUuid).containsExactly("data");
        assertThat(plan.disk("data").set()).isNull();
        assertThat(plan.disk("root").set()).isEqualTo(IoMode.THREADS);
    }

    @Test
    void aDiskOutOfTheStartHooksReachIsRecordedAsTheThreadsItRunsAndNotSet() {
        FakePorts ports = new FakePorts().host(capable("h1").build(), AgentProfile.ZSTACK_STOCK)
                .volume(volume("vhost", "ps1", "LocalStorage").unreachableAtStart("ZStack's agent writes no <serial> for a vhost-user disk").build())
                .override("vhost", IoModeConfig.IO_MODE, "native");
        PlannedDisk d = IO_MODES.plan(DiskRequest.start("vm1", H1, Collections.singletonList("vhost")), ports).disk("vhost");
        assertThat(d.set()).isNull();
        assertThat(d.record().getEffective()).isEqualTo("threads");
        assertThat(d.record().getChecks()).last().satisfies(c -> assertThat(c.getCheck()).isEqualTo(AgentProfile.REACHED_CHECK));
    }

    @ParameterizedTest(name = "hot-plug of {1} on {2} by {0}: set {3}, runs {4}")
    @CsvSource({
            "stock,   native,   LocalStorage, native,   native",
            "stock,   io_uring, LocalStorage, ,         threads",
            "stock,   threads,  SharedBlock,  ,         native",
            "patched, threads,  SharedBlock,  threads,  threads",
            "patched, io_uring, NFS,          io_uring, io_uring",
    })
    void aHotPlugGivesWhatTheHostsAgentCanSet(String agent, String mode, String type, String set, String runs) {
        AgentProfile a = agent.equals("stock") ? AgentProfile.ZSTACK_STOCK : AgentProfile.ZSTACK_PATCHED;
        FakePorts ports = new FakePorts().host(capable("h1").build(), a)
                .volume(volume("data", "ps1", type).build()).override("data", IoModeConfig.IO_MODE, mode);
        DiskPlan plan = IO_MODES.plan(DiskRequest.attach("vm1", H1, "data"), ports);
        assertThat(plan.refused()).isFalse();
        assertThat(plan.disk("data").set() == null ? null : plan.disk("data").set().wire()).isEqualTo(set);
        assertThat(plan.disk("data").record().getEffective()).isEqualTo(runs);
        assertThat(plan.disk("data").record().getOperation()).isEqualTo("attach");
    }

    @Test
    void withFailAHotPlugTheAgentCannotApplyIsRefusedBeforeTheHost() {
        FakePorts ports = new FakePorts().host(capable("h1").build(), AgentProfile.ZSTACK_STOCK)
                .volume(volume("data", "ps1", "LocalStorage").build()).override("data", IoModeConfig.IO_MODE, "io_uring");
        ports.globals.put(IoModeConfig.ON_UNSATISFIED, "fail");
        DiskPlan plan = IO_MODES.plan(DiskRequest.attach("vm1", H1, "data"), ports);
        assertThat(plan.refusal().sentence()).startsWith("volume data was decided io_uring, but at hot-plug ZStack's agent");
        assertThat(plan.refusal().whatToDo()).contains("apply the kvmagent patch");
    }

    @Test
    void aMigrationByAnAgentThatKeepsTheDisksAsksWhatTheyRunOnceForEveryHost() {
        FakePorts ports = new FakePorts().host(capable("h1").build(), AgentProfile.ZSTACK_STOCK)
                .host(capable("h2").ioUringDisabled(2).build(), AgentProfile.ZSTACK_STOCK)
                .volume(volume("root", "ps1", "NFS").build()).volume(volume("data", "ps1", "NFS").build());
        ports.stored.put("data", DecisionRecord.of(IO_MODES.preview(ports.volumes.get("data"), ports.configs(null),
                ports.hosts.get("h1"), Figures.NONE), "vm1", Operation.START, null, null).running("io_uring", "x", "y"));
        ports.asked.clear();
        Map<String, DiskPlan> plans = IO_MODES.migrateTo(DiskRequest.migrate("vm1", H1, Arrays.asList("root", "data")),
                Arrays.asList(H1, H2), ports);
        assertThat(plans.get("h1").refused()).isFalse();
        assertThat(plans.get("h2").refusal().sentence()).startsWith("volume disk-data (data) runs io_uring and ZStack's agent"
                + " migrates a disk as it runs, but host kvm2 (h2) cannot run io_uring: check io_uring-");
        assertThat(plans.get("h2").refusal().volumeUuid()).isEqualTo("data");
        assertThat(ports.count("stored")).isEqualTo(1);
        assertThat(ports.count("volumes")).isEqualTo(1);
        assertThat(ports.count("configs")).isEqualTo(1);
        assertThat(ports.count("host")).isEqualTo(2);
    }

    @Test
    void aMigrationByTheStandaloneAgentReDecidesForTheDestinationAndReadsNoRecord() {
        FakePorts ports = new FakePorts().host(capable("h2").ioUringDisabled(2).build(), AgentProfile.STANDALONE)
                .volume(volume("data", "ps1", "NFS").build()).override("data", IoModeConfig.IO_MODE, "io_uring");
        DiskPlan fallback = IO_MODES.plan(DiskRequest.migrate("vm1", H2, Collections.singletonList("data")), ports);
        assertThat(fallback.refused()).isFalse();
        assertThat(fallback.disk("data").record().getEffective()).isEqualTo("native");
        assertThat(fallback.disk("data").record().getOperation()).isEqualTo("migrate");
        assertThat(ports.count("stored")).isZero();
        ports.globals.put(IoModeConfig.ON_UNSATISFIED, "fail");
        DiskPlan refused = IO_MODES.plan(DiskRequest.migrate("vm1", H2, Collections.singletonList("data")), ports);
        assertThat(refused.refusal().sentence()).startsWith("volume disk-data (data) cannot run io_uring on host kvm2 (h2): check");
    }

    @Test
    void afterAMigrationZStacksRecordsMoveAndTheStandaloneHasNone() {
        FakePorts ports = new FakePorts().host(capable("h2").build(), AgentProfile.ZSTACK_STOCK)
                .volume(volume("data", "ps1", "NFS").build());
        DecisionRecord ran = DecisionRecord.of(IO_MODES.preview(ports.volumes.get("data"), ports.configs(null),
                ports.hosts.get("h2"), Figures.NONE), "vm1", Operation.START, null, "2026-11-27T00:00:00.000Z");
        ports.stored.put("data", ran);
        List<DecisionRecord> moved = IO_MODES.migrated("vm1", H2, Collections.singletonList("data"),
                Collections.<String, DiskKind>emptyMap(), ports);
        assertThat(moved).singleElement().satisfies(r -> {
            assertThat(r.getHostUuid()).isEqualTo("h2");
            assertThat(r.getOperation()).isEqualTo("migrate");
            assertThat(r.getEffective()).isEqualTo(ran.getEffective());
        });
        // a record of another VM (the volume was moved meanwhile) is not this migration's
        assertThat(IO_MODES.migrated("vm2", H2, Collections.singletonList("data"), Collections.<String, DiskKind>emptyMap(),
                ports)).isEmpty();
        FakePorts standalone = new FakePorts().host(capable("h2").build(), AgentProfile.STANDALONE);
        assertThatThrownBy(() -> IO_MODES.migrated("vm1", H2, Collections.singletonList("data"),
                Collections.<String, DiskKind>emptyMap(), standalone)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("re-decides");
    }

    @Test
    void autoWeighsTheHostsBenchmarkOnlyWithTheHostKnown() {
        Map<IoMode, Double> scores = new EnumMap<>(IoMode.class);
        scores.put(IoMode.THREADS, 70.1);
        scores.put(IoMode.NATIVE, 153.0);
        scores.put(IoMode.IO_URING, 105.0);
        FakePorts ports = new FakePorts().host(capable("h1").build(), AgentProfile.STANDALONE)
                .volume(volume("data", "ps1", "NFS").build()).override("data", IoModeConfig.IO_MODE, "auto");
        ports.benchmarks.put("h1/ps1", new ModePerformance(scores, "4K writes at depth 64, k IOPS", null));
        PlannedDisk measured = IO_MODES.plan(DiskRequest.start("vm1", H1, Collections.singletonList("data")), ports).disk("data");
        assertThat(measured.set()).isEqualTo(IoMode.NATIVE);
        assertThat(measured.decision().reason()).contains("fastest measured");
        // no benchmark: the preference order, and the reason says why
        ports.benchmarks.clear();
        assertThat(IO_MODES.plan(DiskRequest.start("vm1", H1, Collections.singletonList("data")), ports).disk("data").set())
                .isEqualTo(IoMode.IO_URING);
        // a host never probed: no figure counts, and io_uring's checks say the facts are unknown
        ports.benchmarks.put("h9/ps1", new ModePerformance(scores, "x", null));
        PlannedDisk unknown = IO_MODES.plan(DiskRequest.start("vm1", new HostRef("h9", null),
                Collections.singletonList("data")), ports).disk("data");
        assertThat(unknown.set()).isEqualTo(IoMode.NATIVE);
        assertThat(unknown.decision().reason()).doesNotContain("measured").contains("no known host");
    }

    @Test
    void theSetTimeRulesAreAskedThroughTheFrontDoor() {
        FakePorts ports = new FakePorts()
                .volume(volume("data", "ps1", "NFS").image("qcow2", "none").sizes(10L << 30, 1L << 30).build());
        VolumeIoFacts v = ports.volumes.get("data");
        assertThat(IO_MODES.refuseIoModeOnVolume("native", v, ports.configs(null)).sentence())
                .startsWith("native cannot be set on volume data: ");
        assertThat(IO_MODES.refuseIoModeOnVolume("io_uring", v, ports.configs(null))).isNull();
        VolumeIoFacts full = volume("data", "ps1", "NFS").build();
        ports.override("data", IoModeConfig.IO_MODE, "native");
        assertThat(IO_MODES.refuseCacheModeOnVolume("writeback", full, ports.configs(null)).sentence())
                .startsWith("cache mode writeback cannot be set on volume data because the volume's own kvm/vm.ioMode is native");
        assertThat(IO_MODES.refuseCacheModeOnVolume("directsync", full, ports.configs(null))).isNull();
    }

    @Test
    void whatAHostCanRunIsAskedOfTheHostsFactsAlone() {
        assertThat(IO_MODES.hostCheck(IoMode.IO_URING, capable("h1").build()).passed()).isTrue();
        assertThat(IO_MODES.hostCheck(IoMode.IO_URING, capable("h1").ioUringDisabled(2).build()).firstFailure().message())
                .contains("kernel.io_uring_disabled is 2");
        assertThat(IO_MODES.hostCheck(IoMode.IO_URING, null).passed()).isFalse();
        assertThat(IO_MODES.checkNames()).contains("known-bad:loop-io_uring", "network-storage");
    }
}
