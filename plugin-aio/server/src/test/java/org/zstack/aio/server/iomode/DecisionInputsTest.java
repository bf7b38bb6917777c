package org.zstack.aio.server.iomode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.server.benchmark.MeasuredPerformance;
import org.zstack.aio.server.config.ConfigDefinitions;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.inventory.PrimaryStorageVO;
import org.zstack.aio.server.inventory.VolumeVO;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * From stored rows and config values to the decision's input, with the shipped config definitions
 * (conf/globalConfig/kvm.yaml). No Spring, no database.
 */
class DecisionInputsTest {

    private static final IoModeConfigs CONFIGS = new IoModeConfigs(new ConfigDefinitions());
    private static final DecisionInputs INPUTS = new DecisionInputs(CONFIGS, new IoModeDecider(IoModeRulesLoader.fromClasspath()));
    private static final HostFacts HOST = new HostFacts("host", Version.parse("6.1"), 0, Version.parse("8.2"), true,
            Version.parse("9.0"));

    record Entry(String name, Map<String, String> globals, Map<String, Map<String, String>> overrides, String cacheOverride,
                 RequestedIoMode requested, ConfigSource source, String cache, OnUnsatisfied onUnsatisfied, boolean allowFalloc) {
        @Override
        public String toString() { return name; }
    }

    static Stream<Entry> entries() {
        return Stream.of(
                new Entry("defaults of kvm.yaml", Map.of(), Map.of(), null,
                        RequestedIoMode.THREADS, ConfigSource.GLOBAL, "none", OnUnsatisfied.FALLBACK, false),
                new Entry("global values", Map.of("vm.ioMode", "auto", "vm.ioMode.onUnsatisfied", "fail", "vm.cacheMode", "writeback"),
                        Map.of(), null, RequestedIoMode.AUTO, ConfigSource.GLOBAL, "writeback", OnUnsatisfied.FAIL, false),
                new Entry("primary storage overrides", Map.of(),
                        Map.of("ps", Map.of("vm.ioMode", "native", "vm.ioMode.native.allowFalloc", "true")), null,
                        RequestedIoMode.NATIVE, ConfigSource.PRIMARY_STORAGE, "none", OnUnsatisfied.FALLBACK, true),
                new Entry("volume overrides win", Map.of("vm.ioMode", "native"),
                        Map.of("ps", Map.of("vm.ioMode", "auto"), "vol", Map.of("vm.ioMode", "io_uring", "vm.cacheMode", "directsync")),
                        null, RequestedIoMode.IO_URING, ConfigSource.VOLUME, "directsync", OnUnsatisfied.FALLBACK, false),
                new Entry("a cache mode being judged replaces the stored one", Map.of(),
                        Map.of("vol", Map.of("vm.cacheMode", "none")), "writethrough",
                        RequestedIoMode.THREADS, ConfigSource.GLOBAL, "writethrough", OnUnsatisfied.FALLBACK, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void buildsTheInput(Entry e) {
        ConfigSnapshot snap = ConfigSnapshot.of(e.globals(), e.overrides());
        DecisionInput in = INPUTS.input(volume(), snap, HOST, e.cacheOverride(), null);
        assertThat(in.requested()).isEqualTo(e.requested());
        assertThat(in.source()).isEqualTo(e.source());
        assertThat(in.volume().cacheMode()).isEqualTo(e.cache());
        assertThat(in.policy().onUnsatisfied()).isEqualTo(e.onUnsatisfied());
        assertThat(in.policy().allowFalloc()).isEqualTo(e.allowFalloc());
        assertThat(in.volume().storageType()).isEqualTo("NFS");
        assertThat(in.volume().preallocation()).isEqualTo("full");
        assertThat(in.volume().actualSize()).isEqualTo(1L << 30);
        assertThat(in.host()).isSameAs(HOST);
        assertThat(in.performance()).isNull();
    }

    /**
     * SharedBlock is block storage, whose default in the shipped rules is native: it stands in for kvm.yaml's default
     * (threads) until an admin sets vm.ioMode on the volume, the storage, or changes the global value.
     */
    @ParameterizedTest(name = "SharedBlock, global {0}, storage {1} -> {2} from {3}")
    @CsvSource(delimiter = '|', value = {
            "-       | -       | native  | STORAGE_KIND_DEFAULT",
            "auto    | -       | auto    | GLOBAL",
            "threads | -       | native  | STORAGE_KIND_DEFAULT", // the global set to its default is no change
            "-       | threads | threads | PRIMARY_STORAGE",
            "auto    | threads | threads | PRIMARY_STORAGE",
    })
    void blockStorageTakesItsKindsDefaultUntilAnAdminChoosesOtherwise(String global, String storage, String requested,
                                                                       ConfigSource source) {
        ConfigSnapshot snap = ConfigSnapshot.of(global.equals("-") ? Map.of() : Map.of("vm.ioMode", global),
                storage.equals("-") ? Map.of() : Map.of("ps", Map.of("vm.ioMode", storage)));
        DecisionInput in = INPUTS.input(volume("SharedBlock"), snap, HOST, null, null);
        assertThat(in.requested()).isEqualTo(RequestedIoMode.fromWire(requested));
        assertThat(in.source()).isEqualTo(source);
        assertThat(in.volume().storageType()).isEqualTo("SharedBlock");
    }

    @Test
    void measurementsCountOnlyWithAHost() {
        ConfigSnapshot snap = ConfigSnapshot.of(Map.of(), Map.of());
        assertThat(INPUTS.input(volume(), snap, null, null, MeasuredPerformance.NONE).performance()).isNull();
        assertThat(INPUTS.input(volume(), snap, HOST, null, MeasuredPerformance.NONE).performance())
                .as("nothing measured for this storage").isNull();
    }

    @Test
    void aSnapshotCoversTheVolumeAndItsStorage() {
        assertThat(DecisionInputs.configOwners(List.of(volume(), volume()))).containsExactly("vol", "ps");
    }

    private static VolumeContext volume() {
        return volume("NFS");
    }

    private static VolumeContext volume(String storageType) {
        VolumeVO v = new VolumeVO("vol", "data", "ps", "qcow2", 1L << 30, "full", "account");
        v.setImage("/nfs/vol.qcow2", 1L << 30, 1L << 30);
        return new VolumeContext(v, new PrimaryStorageVO("ps", "storage", storageType, "/storage"));
    }
}
