package org.zstack.aio.server.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Resolution volume → primary storage → global, as a table. No Spring, no database. */
class ConfigSnapshotTest {

    private static final String VOL = "vol";
    private static final String PS = "ps";
    private static final List<ResourceRef> CHAIN = List.of(new ResourceRef(VOL, LocatedResource.VOLUME),
            new ResourceRef(PS, LocatedResource.PRIMARY_STORAGE));
    private static final GlobalConfigDefinition IO_MODE = new GlobalConfigDefinition("kvm", "vm.ioMode", "", "String",
            "threads", List.of("threads", "native", "io_uring", "auto"), List.of(LocatedResource.VOLUME, LocatedResource.PRIMARY_STORAGE));
    private static final GlobalConfigDefinition STORAGE_ONLY = new GlobalConfigDefinition("kvm", "vm.ioMode.native.allowFalloc",
            "", "Boolean", "false", List.of("true", "false"), List.of(LocatedResource.PRIMARY_STORAGE));
    private static final GlobalConfigDefinition GLOBAL_ONLY = new GlobalConfigDefinition("kvm", "vm.ioMode.onUnsatisfied",
            "", "String", "fallback", List.of("fallback", "fail"), List.of());

    /** One row: the stored values, the definition asked for, and what resolves. */
    record Entry(String name, Map<String, String> globals, Map<String, Map<String, String>> overrides,
                 GlobalConfigDefinition def, String value, String sourceType, String sourceUuid, int levels) {
        @Override
        public String toString() { return name; }
    }

    static Stream<Entry> entries() {
        return Stream.of(
                new Entry("nothing stored: the definition's default", Map.of(), Map.of(), IO_MODE, "threads", "global", null, 1),
                new Entry("a global row wins over the default", Map.of("vm.ioMode", "native"), Map.of(), IO_MODE, "native", "global", null, 1),
                new Entry("the primary storage wins over global", Map.of("vm.ioMode", "native"),
                        Map.of(PS, Map.of("vm.ioMode", "auto")), IO_MODE, "auto", LocatedResource.PRIMARY_STORAGE, PS, 2),
                new Entry("the volume wins over its primary storage", Map.of(),
                        Map.of(PS, Map.of("vm.ioMode", "auto"), VOL, Map.of("vm.ioMode", "io_uring")), IO_MODE, "io_uring",
                        LocatedResource.VOLUME, VOL, 3),
                new Entry("another config's override does not count", Map.of(),
                        Map.of(VOL, Map.of("vm.cacheMode", "writeback")), IO_MODE, "threads", "global", null, 1),
                new Entry("a volume override of a storage-only config is ignored", Map.of("vm.ioMode.native.allowFalloc", "false"),
                        Map.of(VOL, Map.of("vm.ioMode.native.allowFalloc", "true")), STORAGE_ONLY, "false", "global", null, 1),
                new Entry("a storage-only config follows its storage", Map.of(),
                        Map.of(PS, Map.of("vm.ioMode.native.allowFalloc", "true")), STORAGE_ONLY, "true",
                        LocatedResource.PRIMARY_STORAGE, PS, 2),
                new Entry("a global-only config ignores every override", Map.of("vm.ioMode.onUnsatisfied", "fail"),
                        Map.of(VOL, Map.of("vm.ioMode.onUnsatisfied", "fallback")), GLOBAL_ONLY, "fail", "global", null, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void resolves(Entry e) {
        ConfigSnapshot snap = new ConfigSnapshot(e.globals(), e.overrides());
        ConfigSnapshot.Resolved r = snap.resolve(e.def(), CHAIN);
        assertThat(r.value()).isEqualTo(e.value());
        assertThat(r.sourceType()).isEqualTo(e.sourceType());
        assertThat(r.sourceUuid()).isEqualTo(e.sourceUuid());
        List<ConfigSnapshot.Level> levels = snap.levels(e.def(), CHAIN);
        assertThat(levels).hasSize(e.levels());
        assertThat(levels.get(0).value()).as("the first level is what resolves").isEqualTo(e.value());
        assertThat(levels.get(levels.size() - 1).resourceType()).isEqualTo("global");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void whatIfAGlobalChangesOnlyMovesVolumesThatFollowGlobal(Entry e) {
        ConfigSnapshot snap = new ConfigSnapshot(e.globals(), e.overrides()).withGlobal(e.def().name(), "proposed");
        String expected = "global".equals(e.sourceType()) ? "proposed" : e.value();
        assertThat(snap.resolve(e.def(), CHAIN).value()).isEqualTo(expected);
    }
}
