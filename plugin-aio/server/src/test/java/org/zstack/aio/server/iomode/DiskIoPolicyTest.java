package org.zstack.aio.server.iomode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
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

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the agent receives per disk, plugin on and off, and how the agent's answer folds into the decision. The
 * decisions come from the real decider with the shipped rules; no Spring, no database, no agent.
 */
class DiskIoPolicyTest {

    private static final IoModeDecider DECIDER = new IoModeDecider(IoModeRulesLoader.fromClasspath());
    private static final HostFacts GOOD = new HostFacts("h", Version.parse("6.1"), 0, Version.parse("8.2"), true,
            Version.parse("9.0"));
    private static final org.zstack.aio.plugin.DiskIoModes CORE = new org.zstack.aio.plugin.DiskIoModes(DECIDER.rules());
    private static final PluginDiskIo PLUGIN = new PluginDiskIo(CORE, null,
            new org.zstack.aio.server.metrics.IoModeMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry(), CORE));
    private static final LegacyDiskIo LEGACY = new LegacyDiskIo(CORE, null);

    static Decided decided(String storageType, String installPath, String prealloc, String cache, RequestedIoMode r,
                           OnUnsatisfied onUnsatisfied) {
        VolumeVO v = new VolumeVO("vol", "data", "ps", "qcow2", 1L << 30, prealloc, "account");
        v.setImage(installPath, 1L << 30, 1L << 30);
        VolumeContext ctx = new VolumeContext(v, new PrimaryStorageVO("ps", "p", storageType, "/p"));
        DecisionInput in = new DecisionInput(r, ConfigSource.GLOBAL,
                new VolumeFacts("vol", storageType, "qcow2", prealloc, 1L << 30, 1L << 30, cache), GOOD,
                new DecisionPolicy(onUnsatisfied, false));
        return new Decided(ctx, cache, DECIDER.decide(in));
    }

    record Entry(String name, Decided d, String deviceType, String pluginCache, List<String> pluginIo, String legacyCache,
                 List<String> legacyIo) {
        @Override
        public String toString() { return name; }
    }

    static Stream<Entry> entries() {
        return Stream.of(
                new Entry("auto on a full LocalStorage image: the whole chain", decided("LocalStorage", "/p/vol.qcow2", "full",
                        "none", RequestedIoMode.AUTO, OnUnsatisfied.FALLBACK), "file", "none",
                        List.of("io_uring", "native", "threads"), "none", List.of()),
                new Entry("auto on a sparse image skips native", decided("NFS", "/p/vol.qcow2", "none", "none",
                        RequestedIoMode.AUTO, OnUnsatisfied.FALLBACK), "file", "none", List.of("io_uring", "threads"), "none", List.of()),
                new Entry("fail policy: only the effective mode", decided("LocalStorage", "/p/vol.qcow2", "full", "none",
                        RequestedIoMode.IO_URING, OnUnsatisfied.FAIL), "file", "none", List.of("io_uring"), "none", List.of()),
                new Entry("writeback keeps its cache, native is out", decided("LocalStorage", "/p/vol.qcow2", "full", "writeback",
                        RequestedIoMode.NATIVE, OnUnsatisfied.FALLBACK), "file", "writeback", List.of("threads"), "writeback", List.of()),
                new Entry("SharedBlock LV: the previous platform forced native, cache none", decided("SharedBlock", "/dev/vg/lv",
                        "none", "writeback", RequestedIoMode.THREADS, OnUnsatisfied.FALLBACK), "block", "writeback",
                        List.of("threads"), "none", List.of("native")),
                new Entry("Ceph: no io attribute", decided("Ceph", "ceph://pool/vol", "none", "none", RequestedIoMode.AUTO,
                        OnUnsatisfied.FALLBACK), "network", "none", List.of(), "none", List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void disks(Entry e) {
        DiskTO on = PLUGIN.disk(e.d(), 3);
        assertThat(on.deviceType()).isEqualTo(e.deviceType());
        assertThat(on.deviceId()).isEqualTo(3);
        assertThat(on.cache()).isEqualTo(e.pluginCache());
        assertThat(on.ioCandidates()).containsExactlyElementsOf(e.pluginIo());
        DiskTO off = LEGACY.disk(e.d(), 3);
        assertThat(off.deviceType()).isEqualTo(e.deviceType());
        assertThat(off.cache()).isEqualTo(e.legacyCache());
        assertThat(off.ioCandidates()).containsExactlyElementsOf(e.legacyIo());
        assertThat(List.of(on.volumeUuid(), on.installPath(), on.format()))
                .containsExactly("vol", e.d().volume().volume().getInstallPath(), "qcow2");
    }

    @Test
    void aRefusalAtStartIsRecordedInTheDecision() {
        Decided d = decided("LocalStorage", "/p/vol.qcow2", "full", "none", RequestedIoMode.AUTO, OnUnsatisfied.FALLBACK);
        Decided after = AppliedDecisions.apply(d, new DiskResult("vol", "native", "none",
                List.of(new DiskResult.Attempt("io_uring", "Invalid argument"))));
        assertThat(after.decision().effectiveWire()).isEqualTo("native");
        assertThat(after.decision().checks()).last().satisfies(c -> {
            assertThat(c.check()).isEqualTo("accepted-at-start");
            assertThat(c.message()).isEqualTo("libvirt/QEMU refused io=io_uring at start: Invalid argument");
        });
        assertThat(after.decision().reason()).endsWith("At start libvirt/QEMU refused io_uring (Invalid argument), so native was applied.");
        assertThat(after.volume()).isSameAs(d.volume());
    }

    @Test
    void noRefusalOrNoAnswerLeavesTheDecisionAsItWas() {
        Decided d = decided("LocalStorage", "/p/vol.qcow2", "full", "none", RequestedIoMode.AUTO, OnUnsatisfied.FALLBACK);
        assertThat(AppliedDecisions.apply(d, null)).isSameAs(d);
        assertThat(AppliedDecisions.apply(d, new DiskResult("vol", "io_uring", "none", List.of()))).isSameAs(d);
    }
}
