package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fold volume → primary storage → global, each config by its own bindings, and kvm/vm.ioMode's storage kind
 * default, as tables.
 */
class IoModeSettingsTest {

    /** Values given as "name=value;..." per level; "-" for none. File storage (NFS): no kind default. */
    @ParameterizedTest(name = "volume [{0}] storage [{1}] global [{2}] -> {3} from {4}, {5}, allowFalloc {6}")
    @CsvSource(delimiter = '|', value = {
            "-                                 | -                                 | -                            | threads | GLOBAL          | fallback | false",
            "-                                 | -                                 | vm.ioMode=auto               | auto    | GLOBAL          | fallback | false",
            "-                                 | vm.ioMode=native                  | vm.ioMode=auto               | native  | PRIMARY_STORAGE | fallback | false",
            "vm.ioMode=io_uring                | vm.ioMode=native                  | vm.ioMode=auto               | io_uring| VOLUME          | fallback | false",
            // onUnsatisfied is global only: overrides on a volume or a storage (rows left by an older binding) do not count
            "vm.ioMode.onUnsatisfied=fail      | vm.ioMode.onUnsatisfied=fail      | -                            | threads | GLOBAL          | fallback | false",
            "-                                 | -                                 | vm.ioMode.onUnsatisfied=fail | threads | GLOBAL          | fail     | false",
            // allowFalloc binds to the storage only: a volume's own row does not count
            "vm.ioMode.native.allowFalloc=true | -                                 | -                            | threads | GLOBAL          | fallback | false",
            "-                                 | vm.ioMode.native.allowFalloc=true | -                            | threads | GLOBAL          | fallback | true",
            "-                                 | vm.ioMode.native.allowFalloc=false| vm.ioMode.native.allowFalloc=true | threads | GLOBAL | fallback | false",
    })
    void resolvesEachConfigByItsBindings(String volume, String storage, String global, String mode, ConfigSource source,
                                         String onUnsatisfied, boolean allowFalloc) {
        IoModeSettings s = resolve("NFS", volume, storage, global, DEFAULTS);
        assertThat(s.requested()).isEqualTo(RequestedIoMode.fromWire(mode));
        assertThat(s.source()).isEqualTo(source);
        assertThat(s.policy().onUnsatisfied()).isEqualTo(OnUnsatisfied.fromWire(onUnsatisfied));
        assertThat(s.policy().allowFalloc()).isEqualTo(allowFalloc);
    }

    /**
     * kvm/vm.ioMode per storage kind (the shipped rules: block defaults to native, file and network to the global
     * default) × an admin's value at each level: volume → primary storage → a changed global → the kind's default →
     * the global default.
     */
    @ParameterizedTest(name = "{0}: volume [{1}] storage [{2}] global [{3}] -> {4} from {5}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            // nothing set: each kind's own default, as stock ZStack ran it
            "SharedBlock      | -                  | -                | -                            | native   | STORAGE_KIND_DEFAULT",
            "NFS              | -                  | -                | -                            | threads  | GLOBAL",
            "LocalStorage     | -                  | -                | -                            | threads  | GLOBAL",
            "SharedMountPoint | -                  | -                | -                            | threads  | GLOBAL",
            "Ceph             | -                  | -                | -                            | threads  | GLOBAL",
            // a type the rules do not know is file storage (the cautious kind), and so is one not known at all
            "SomethingNew     | -                  | -                | -                            | threads  | GLOBAL",
            "null             | -                  | -                | -                            | threads  | GLOBAL",
            // an admin changed the global value: every kind follows it
            "SharedBlock      | -                  | -                | vm.ioMode=auto               | auto     | GLOBAL",
            "SharedBlock      | -                  | -                | vm.ioMode=io_uring           | io_uring | GLOBAL",
            "NFS              | -                  | -                | vm.ioMode=native             | native   | GLOBAL",
            // the global value set back to its default is no change (ZStack stores the value alone)
            "SharedBlock      | -                  | -                | vm.ioMode=threads            | native   | STORAGE_KIND_DEFAULT",
            // a change to another config leaves the mode's default alone
            "SharedBlock      | -                  | -                | vm.ioMode.onUnsatisfied=fail | native   | STORAGE_KIND_DEFAULT",
            // an admin's value on the primary storage or the volume wins over both
            "SharedBlock      | -                  | vm.ioMode=threads| -                            | threads  | PRIMARY_STORAGE",
            "SharedBlock      | -                  | vm.ioMode=threads| vm.ioMode=auto               | threads  | PRIMARY_STORAGE",
            "SharedBlock      | vm.ioMode=threads  | -                | -                            | threads  | VOLUME",
            "SharedBlock      | vm.ioMode=io_uring | vm.ioMode=threads| vm.ioMode=auto               | io_uring | VOLUME",
            "NFS              | -                  | vm.ioMode=native | -                            | native   | PRIMARY_STORAGE",
    })
    void theStorageKindsDefaultStandsInForTheGlobalDefault(String storageType, String volume, String storage,
                                                          String global, String mode, ConfigSource source) {
        IoModeSettings s = resolve(storageType, volume, storage, global, DEFAULTS);
        assertThat(s.requested()).isEqualTo(RequestedIoMode.fromWire(mode));
        assertThat(s.source()).isEqualTo(source);
    }

    @Test
    void changedMeansDifferentFromThePlatformsDeclaredDefault() {
        // a platform whose declared default were native: a global native is then unchanged, threads an admin's choice
        Map<String, String> nativeDefault = Map.of(IoModeConfig.IO_MODE.name(), "native");
        assertThat(resolve("SharedBlock", "-", "-", "vm.ioMode=native", nativeDefault).source())
                .isEqualTo(ConfigSource.STORAGE_KIND_DEFAULT);
        IoModeSettings changed = resolve("SharedBlock", "-", "-", "vm.ioMode=threads", nativeDefault);
        assertThat(changed.requested()).isEqualTo(RequestedIoMode.THREADS);
        assertThat(changed.source()).isEqualTo(ConfigSource.GLOBAL);
    }

    @Test
    void rulesWithoutKindDefaultsKeepTheGlobalDefault() {
        IoModeRules none = new IoModeRules(RULES.storageTypes(), RULES.nativeCacheModes(), RULES.nonSparsePreallocations(),
                RULES.minKernel(), RULES.minQemu(), RULES.minLibvirt(), RULES.preference(), RULES.knownBad());
        IoModeSettings s = IoModeSettings.resolve(values("-", "-", "-", DEFAULTS), none, "SharedBlock");
        assertThat(s.requested()).isEqualTo(RequestedIoMode.THREADS);
        assertThat(s.source()).isEqualTo(ConfigSource.GLOBAL);
    }

    private static final IoModeRules RULES = IoModeRulesLoader.fromClasspath();
    /** The platform declares each config's default as the core's table does. */
    private static final Map<String, String> DEFAULTS = new HashMap<>();

    static {
        for (IoModeConfig c : IoModeConfig.ALL) DEFAULTS.put(c.name(), c.defaultValue());
    }

    private static IoModeSettings resolve(String storageType, String volume, String storage, String global,
                                          Map<String, String> defaults) {
        return IoModeSettings.resolve(values(volume, storage, global, defaults), RULES, storageType);
    }

    /** A platform's values: a global config never set reads as its declared default, as both platforms store it. */
    private static IoModeSettings.Values values(String volume, String storage, String global, Map<String, String> defaults) {
        Map<String, String> vol = parse(volume), ps = parse(storage), glob = parse(global);
        return new IoModeSettings.Values() {
            @Override
            public String override(ConfigSource level, IoModeConfig config) {
                return (level == ConfigSource.VOLUME ? vol : ps).get(config.name());
            }

            @Override
            public String global(IoModeConfig config) {
                return glob.getOrDefault(config.name(), globalDefault(config));
            }

            @Override
            public String globalDefault(IoModeConfig config) {
                return defaults.getOrDefault(config.name(), config.defaultValue());
            }
        };
    }

    private static Map<String, String> parse(String s) {
        Map<String, String> m = new HashMap<>();
        if (s == null || s.isBlank() || s.trim().equals("-")) return m;
        for (String kv : s.split(";")) {
            String[] p = kv.trim().split("=", 2);
            m.put(p[0], p[1]);
        }
        return m;
    }
}
