package org.zstack.aio.plugin;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The fold volume → primary storage → global, each config by its own bindings, as a table. */
class IoModeSettingsTest {

    /** Values given as "name=value;..." per level; "-" for none. */
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
        Map<String, String> vol = parse(volume), ps = parse(storage), glob = parse(global);
        IoModeSettings s = IoModeSettings.resolve(new IoModeSettings.Values() {
            @Override
            public String override(ConfigSource level, IoModeConfig config) {
                return (level == ConfigSource.VOLUME ? vol : ps).get(config.name());
            }

            @Override
            public String global(IoModeConfig config) {
                return glob.getOrDefault(config.name(), config.defaultValue());
            }
        });
        assertThat(s.requested()).isEqualTo(RequestedIoMode.fromWire(mode));
        assertThat(s.source()).isEqualTo(source);
        assertThat(s.policy().onUnsatisfied()).isEqualTo(OnUnsatisfied.fromWire(onUnsatisfied));
        assertThat(s.policy().allowFalloc()).isEqualTo(allowFalloc);
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
