package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/** What each platform's agent gives a hot-plugged disk, and which migrations each can carry, as tables. */
class AgentProfileTest {

    private static final IoModeDecider DECIDER = new IoModeDecider(IoModeRulesLoader.fromClasspath());
    private static final HostFacts CAPABLE = new HostFacts("h1", Version.parse("6.1.0"), 0, Version.parse("8.2.0"), true,
            Version.parse("9.0.0"));
    private static final HostFacts IO_URING_OFF = new HostFacts("h2", Version.parse("5.14.0"), 2, Version.parse("8.2.0"),
            true, Version.parse("9.0.0"));

    private static IoModeDecision decide(String mode, String storage, OnUnsatisfied policy) {
        String format = storage.equals("SharedBlock") ? "raw" : "qcow2";
        VolumeFacts v = new VolumeFacts("vol1", storage, format, "full", 10L << 30, null, "none");
        return DECIDER.decide(new DecisionInput(RequestedIoMode.fromWire(mode), ConfigSource.VOLUME, v, CAPABLE,
                new DecisionPolicy(policy, false)));
    }

    /** One disk of a migration to host b (h2), as the use case hands it to an agent. */
    private static MigratingDisk migrating(IoModeDecision onDestination, IoMode runsNow, HostFacts destination) {
        return new MigratingDisk() {
            public String volumeName() { return "data (vol1)"; }
            public String hostName() { return "host b (h2)"; }
            public IoModeDecision onDestination() { return onDestination; }
            public IoMode runsNow() { return runsNow; }
            public org.zstack.aio.decision.CheckResult destinationCanRun(IoMode mode) { return DECIDER.checkHost(mode, destination); }
        };
    }

    private static AgentProfile profile(String name) {
        switch (name) {
            case "stock": return AgentProfile.ZSTACK_STOCK;
            case "patched": return AgentProfile.ZSTACK_PATCHED;
            default: return AgentProfile.STANDALONE;
        }
    }

    @ParameterizedTest(name = "{0} agent, {1} on {2}: set {3}, disk runs {4}")
    @CsvSource({
            // ZStack's unmodified agent: NativeAio only; otherwise file -> threads, block -> native
            "stock,      native,   LocalStorage, native, native",
            "stock,      threads,  LocalStorage, ,       threads",
            "stock,      io_uring, LocalStorage, ,       threads",
            "stock,      threads,  SharedBlock,  ,       native",
            "standalone, native,   SharedBlock,  native, native",
            "stock,      native,   SharedBlock,  native, native",
            // with the kvmagent patch and on the standalone agent: the decided mode
            "patched,    threads,  SharedBlock,  threads, threads",
            "patched,    io_uring, LocalStorage, io_uring, io_uring",
            "standalone, io_uring, NFS,          io_uring, io_uring",
            "standalone, threads,  SharedBlock,  threads, threads",
    })
    void hotPlugRecordsWhatTheDiskGets(String agent, String mode, String storage, String set, String runs) {
        IoModeDecision d = decide(mode, storage, OnUnsatisfied.FALLBACK);
        assertThat(d.effectiveWire()).isEqualTo(mode);
        DiskKind kind = storage.equals("SharedBlock") ? DiskKind.BLOCK : DiskKind.FILE;
        AgentProfile.HotPlug h = profile(agent).atHotPlug(d, kind, OnUnsatisfied.FALLBACK);
        assertThat(h.refusal()).isNull();
        assertThat(h.set() == null ? null : h.set().wire()).isEqualTo(set);
        assertThat(h.recorded().effectiveWire()).isEqualTo(runs);
        if (runs.equals(mode)) {
            assertThat(h.recorded()).isSameAs(d);
        } else {
            assertThat(h.recorded().reason()).endsWith("so the disk runs " + runs + ".")
                    .contains("ZStack's agent can only add io=native");
            assertThat(h.recorded().checks()).last().satisfies(c -> {
                assertThat(c.check()).isEqualTo(AgentProfile.APPLIED_CHECK);
                assertThat(c.mode()).isEqualTo(mode);
                assertThat(c.passed()).isFalse();
            });
        }
    }

    @Test
    void withFailAnAttachTheAgentCannotApplyIsRefusedNamingTheDisk() {
        IoModeDecision d = decide("io_uring", "LocalStorage", OnUnsatisfied.FAIL);
        AgentProfile.HotPlug h = AgentProfile.ZSTACK_STOCK.atHotPlug(d, DiskKind.FILE, OnUnsatisfied.FAIL);
        assertThat(h.refusal().text()).startsWith("volume vol1 was decided io_uring, but at hot-plug ZStack's agent can only add"
                                           + " io=native").contains("it would run threads");
        // native it can apply: no refusal
        IoModeDecision n = decide("native", "LocalStorage", OnUnsatisfied.FAIL);
        assertThat(AgentProfile.ZSTACK_STOCK.atHotPlug(n, DiskKind.FILE, OnUnsatisfied.FAIL).refusal()).isNull();
    }

    @Test
    void networkDisksTakeNoIoAttribute() {
        VolumeFacts ceph = new VolumeFacts("vol1", "Ceph", "raw", null, 10L << 30, null, "none");
        IoModeDecision d = DECIDER.decide(new DecisionInput(RequestedIoMode.IO_URING, ConfigSource.GLOBAL, ceph, CAPABLE,
                DecisionPolicy.DEFAULT));
        AgentProfile.HotPlug h = AgentProfile.ZSTACK_STOCK.atHotPlug(d, DiskKind.NETWORK, OnUnsatisfied.FAIL);
        assertThat(h.refusal()).isNull();
        assertThat(h.set()).isNull();
        assertThat(h.recorded().effectiveWire()).isEqualTo("not-applicable");
    }

    @ParameterizedTest(name = "{0} agent, disk runs {1}, destination io_uring off: blocked {2}")
    @CsvSource({
            "stock,      io_uring, true",
            "stock,      native,   false",
            "stock,      threads,  false",
            "patched,    io_uring, true",
            // the standalone agent re-decides for the destination: io_uring falls back there, nothing blocks
            "standalone, io_uring, false",
    })
    void migrationKeepsOrRedecides(String agent, String runs, boolean blocked) {
        IoModeDecision onDestination = DECIDER.decide(new DecisionInput(RequestedIoMode.fromWire(runs), ConfigSource.GLOBAL,
                new VolumeFacts("vol1", "NFS", "qcow2", "full", 10L << 30, null, "none"), IO_URING_OFF, DecisionPolicy.DEFAULT));
        String blocker = profile(agent).migrationBlocker(migrating(onDestination, IoMode.fromWire(runs), IO_URING_OFF));
        if (!blocked) {
            assertThat(blocker).isNull();
        } else {
            assertThat(blocker).startsWith("volume data (vol1) runs io_uring and ZStack's agent")
                    .contains("host b (h2) cannot run io_uring: check io_uring-")
                    .contains("io_uring_disabled");
        }
    }

    @Test
    void theStandaloneAgentIsBlockedOnlyByARefusal() {
        IoModeDecision refused = DECIDER.decide(new DecisionInput(RequestedIoMode.IO_URING, ConfigSource.VOLUME,
                new VolumeFacts("vol1", "NFS", "qcow2", "full", 10L << 30, null, "none"), IO_URING_OFF,
                new DecisionPolicy(OnUnsatisfied.FAIL, false)));
        assertThat(refused.refused()).isTrue();
        assertThat(AgentProfile.STANDALONE.migrationBlocker(migrating(refused, IoMode.IO_URING, IO_URING_OFF))).startsWith("volume data (vol1) cannot run io_uring on host b (h2): check ");
    }

    @ParameterizedTest(name = "{0} requested on {1}, out of the start hook's reach: runs {2}")
    @CsvSource({
            "native,   LocalStorage, threads",
            "io_uring, LocalStorage, threads",
            "threads,  LocalStorage, threads",
    })
    void aDiskTheStartHookCannotReachIsRecordedAsRunningWithoutAnIoAttribute(String mode, String storage, String runs) {
        IoModeDecision d = decide(mode, storage, OnUnsatisfied.FALLBACK);
        IoModeDecision r = AgentProfile.ZSTACK_STOCK.unreachableAtStart(d, "ZStack's agent writes no <serial> for a vhost-user disk");
        assertThat(r.effectiveMode().wire()).isEqualTo(runs);
        if (d.effectiveMode() != IoMode.THREADS) {
            assertThat(r.checks()).anySatisfy(c -> {
                assertThat(c.check()).isEqualTo(AgentProfile.REACHED_CHECK);
                assertThat(c.passed()).isFalse();
                assertThat(c.message()).contains("no <serial> for a vhost-user disk").contains("cannot find it");
            });
            assertThat(r.reason()).endsWith("so the disk runs threads.");
        } else {
            assertThat(r).isEqualTo(d);
        }
    }

    @ParameterizedTest(name = "{0} agent, {1} on {2}, XML rebuilt as {3}: runs {4}")
    @CsvSource({
            // carried with the source's XML: what it ran
            "stock,   io_uring, LocalStorage, ,      io_uring",
            "stock,   native,   SharedBlock,  ,      native",
            // rebuilt by the agent's _get_new_disk: file without io (threads), block with io=native
            "stock,   io_uring, LocalStorage, FILE,  threads",
            "stock,   native,   LocalStorage, FILE,  threads",
            "stock,   threads,  LocalStorage, FILE,  threads",
            "stock,   threads,  SharedBlock,  BLOCK, native",
            "stock,   native,   SharedBlock,  BLOCK, native",
            // the patch changes only the hot-plug code
            "patched, io_uring, NFS,          FILE,  threads",
            // Ceph: no io attribute, before or after
            "stock,   io_uring, Ceph,         NETWORK, not-applicable",
    })
    void aMigrationRecordsWhatTheDiskRunsOnTheDestination(String agent, String mode, String storage, DiskKind rebuilt,
                                                          String runs) {
        IoModeDecision d = decide(mode, storage, OnUnsatisfied.FALLBACK);
        DecisionRecord before = DecisionRecord.of(d, "vm1", Operation.START, null, "2026-11-26T04:31:11.123Z");
        DecisionRecord after = ((ZStackAgent) profile(agent)).afterMigration(before, "h2", "host b (h2)", rebuilt);
        assertThat(after.getOperation()).isEqualTo("migrate");
        assertThat(after.getHostUuid()).isEqualTo("h2");
        assertThat(after.getDecidedAt()).isNull();
        assertThat(after.getEffective()).isEqualTo(runs);
        assertThat(after.getRequested()).isEqualTo(before.getRequested());
        assertThat(after.getVmInstanceUuid()).isEqualTo("vm1");
        if (runs.equals(before.getEffective())) {
            assertThat(after.getChecks()).isEqualTo(before.getChecks());
            assertThat(after.getReason()).isEqualTo(before.getReason());
        } else {
            assertThat(after.getChecks()).hasSize(before.getChecks().size() + 1).last().satisfies(c -> {
                assertThat(c.getCheck()).isEqualTo(AgentProfile.MIGRATED_CHECK);
                assertThat(c.getMode()).isEqualTo(mode);
                assertThat(c.isPassed()).isFalse();
                assertThat(c.getMessage()).isEqualTo("the live migration to host b (h2) rebuilt the disk's domain XML, where "
                        + profile(agent).name() + " writes a " + rebuilt.name().toLowerCase() + " disk "
                        + (runs.equals("threads") ? "without an io attribute" : "with io=" + runs) + ", so the disk runs "
                        + runs + " until the VM's next start, which applies the decision again");
            });
            assertThat(after.getReason()).startsWith(d.reason().substring(0, d.reason().length() - 1) + "; the live migration")
                    .endsWith("which applies the decision again.");
        }
    }

    @Test
    void aSecondRebuildAddsNothing() {
        DecisionRecord once = AgentProfile.ZSTACK_STOCK.afterMigration(DecisionRecord.of(decide("io_uring", "NFS",
                OnUnsatisfied.FALLBACK), "vm1", Operation.START, null, null), "h2", "host b (h2)", DiskKind.FILE);
        DecisionRecord twice = AgentProfile.ZSTACK_STOCK.afterMigration(once, "h1", "host a (h1)", DiskKind.FILE);
        assertThat(twice.getChecks()).isEqualTo(once.getChecks());
        assertThat(twice.getEffective()).isEqualTo("threads");
        assertThat(twice.getHostUuid()).isEqualTo("h1");
    }

    @Test
    void aNotApplicableDecisionStaysAsItIsOutOfTheHooksReach() {
        IoModeDecision d = decide("io_uring", "Ceph", OnUnsatisfied.FAIL);
        assertThat(AgentProfile.ZSTACK_STOCK.unreachableAtStart(d, "x")).isSameAs(d);
    }
}
