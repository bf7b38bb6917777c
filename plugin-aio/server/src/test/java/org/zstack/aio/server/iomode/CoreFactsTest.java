package org.zstack.aio.server.iomode;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.rules.IoModeRulesLoader;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.Figures;
import org.zstack.aio.plugin.IoModeSettings;
import org.zstack.aio.plugin.VolumeIoFacts;
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
 * From stored rows and config values to the core's facts and configs, folded by the core as it decides, with the
 * shipped config definitions (conf/globalConfig/kvm.yaml). No Spring, no database.
 */
class CoreFactsTest {

    private static final IoModeConfigs CONFIGS = new IoModeConfigs(new ConfigDefinitions());
    private static final CoreFacts CORE_FACTS = new CoreFacts(CONFIGS);
    private static final DiskIoModes CORE = new DiskIoModes(IoModeRulesLoader.fromClasspath());

    record Entry(String name, Map<String, String> globals, Map<String, Map<String, String>> overrides,
                 RequestedIoMode requested, ConfigSource source, String cache, OnUnsatisfied onUnsatisfied, boolean allowFalloc) {
        @Override
        public String toString() { return name; }
    }

    static Stream<Entry> entries() {
        return Stream.of(
                new Entry("defaults of kvm.yaml", Map.of(), Map.of(),
                        RequestedIoMode.THREADS, ConfigSource.GLOBAL, "none", OnUnsatisfied.FALLBACK, false),
                new Entry("global values", Map.of("vm.ioMode", "auto", "vm.ioMode.onUnsatisfied", "fail", "vm.cacheMode", "writeback"),
                        Map.of(), RequestedIoMode.AUTO, ConfigSource.GLOBAL, "writeback", OnUnsatisfied.FAIL, false),
                new Entry("primary storage overrides", Map.of(),
                        Map.of("ps", Map.of("vm.ioMode", "native", "vm.ioMode.native.allowFalloc", "true")),
                        RequestedIoMode.NATIVE, ConfigSource.PRIMARY_STORAGE, "none", OnUnsatisfied.FALLBACK, true),
                new Entry("volume overrides win", Map.of("vm.ioMode", "native"),
                        Map.of("ps", Map.of("vm.ioMode", "auto"), "vol", Map.of("vm.ioMode", "io_uring", "vm.cacheMode", "directsync")),
                        RequestedIoMode.IO_URING, ConfigSource.VOLUME, "directsync", OnUnsatisfied.FALLBACK, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void givesTheCoreTheVolumeAndItsConfigs(Entry e) {
        ConfigSnapshot snap = ConfigSnapshot.of(e.globals(), e.overrides());
        VolumeIoFacts v = CORE_FACTS.volume(volume(), snap);
        IoModeSettings s = CORE.settings(v, CORE_FACTS.configs(snap));
        assertThat(s.requested()).isEqualTo(e.requested());
        assertThat(s.source()).isEqualTo(e.source());
        assertThat(v.cacheMode()).isEqualTo(e.cache());
        assertThat(s.policy().onUnsatisfied()).isEqualTo(e.onUnsatisfied());
        assertThat(s.policy().allowFalloc()).isEqualTo(e.allowFalloc());
        assertThat(v.storageType()).isEqualTo("NFS");
        assertThat(v.primaryStorageUuid()).isEqualTo("ps");
        assertThat(v.preallocation()).isEqualTo("full");
        assertThat(v.actualSize()).isEqualTo(1L << 30);
        assertThat(v.label()).isEqualTo("data (vol)");
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
        VolumeIoFacts v = CORE_FACTS.volume(volume("SharedBlock"), snap);
        IoModeSettings s = CORE.settings(v, CORE_FACTS.configs(snap));
        assertThat(s.requested()).isEqualTo(RequestedIoMode.fromWire(requested));
        assertThat(s.source()).isEqualTo(source);
        assertThat(v.storageType()).isEqualTo("SharedBlock");
    }

    @Test
    void aHostWithNoBenchmarkHasNoFigures() {
        assertThat(CoreFacts.figures(MeasuredPerformance.NONE, uuid -> null)).isSameAs(Figures.NONE);
        assertThat(CoreFacts.figures(null, uuid -> null)).isSameAs(Figures.NONE);
    }

    @Test
    void aSnapshotCoversTheVolumeAndItsStorage() {
        assertThat(CoreFacts.configOwners(List.of(volume(), volume()))).containsExactly("vol", "ps");
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
