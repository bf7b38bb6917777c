package org.zstack.aio.plugin;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/** native set on a volume, or a cache mode set under a volume's own native, against the volume's own facts. */
class VolumeSetRuleTest {

    private static final VolumeSetRule RULE = new VolumeSetRule(new IoModeDecider(IoModeRulesLoader.fromClasspath()));
    private static final long GIB = 1L << 30;

    @ParameterizedTest(name = "{0} {1} {2} cache {3} allowFalloc {4}: native -> {5}")
    @CsvSource({
            "LocalStorage, qcow2, full,     none,        false, allowed,",
            "LocalStorage, qcow2, none,     none,        false, refused, non-sparse-image",
            "LocalStorage, qcow2, metadata, none,        false, refused, non-sparse-image",
            "LocalStorage, qcow2, falloc,   none,        false, refused, non-sparse-image",
            "LocalStorage, qcow2, falloc,   none,        true,  allowed,",
            "NFS,          qcow2, full,     writeback,   false, refused, cache-mode",
            "NFS,          qcow2, full,     directsync,  false, allowed,",
            "SharedBlock,  raw,   none,     none,        false, allowed,",
            "SharedBlock,  raw,   none,     writethrough,false, refused, cache-mode",
    })
    void nativeOnTheVolume(String storage, String format, String prealloc, String cache, boolean allowFalloc, String outcome,
                           String check) {
        VolumeFacts v = new VolumeFacts("vol1", storage, format, prealloc, 10 * GIB, null, cache);
        ConfigRefusal r = RULE.ioMode("native", v, new DecisionPolicy(OnUnsatisfied.FALLBACK, allowFalloc));
        if (outcome.equals("allowed")) {
            assertThat(r).isNull();
        } else {
            assertThat(r.description()).startsWith("native cannot be set on volume vol1: ");
            assertThat(r.whatToDo()).startsWith("Fix what check " + check + " names");
        }
        // any other value is never refused for the volume's facts
        assertThat(RULE.ioMode("threads", v, DecisionPolicy.DEFAULT)).isNull();
        assertThat(RULE.ioMode("auto", v, DecisionPolicy.DEFAULT)).isNull();
    }

    @ParameterizedTest(name = "own ioMode {0}, cache {1} -> {2}")
    @CsvSource({
            "native, writeback,    refused",
            "native, writethrough, refused",
            "native, directsync,   allowed",
            "native, none,         allowed",
            ",       writeback,    allowed",
            "auto,   writeback,    allowed",
    })
    void cacheModeUnderTheVolumesOwnNative(String ownIoMode, String cache, String outcome) {
        VolumeFacts v = new VolumeFacts("vol1", "LocalStorage", "qcow2", "full", 10 * GIB, null, "none");
        ConfigRefusal r = RULE.cacheMode(cache, ownIoMode, v, DecisionPolicy.DEFAULT);
        if (outcome.equals("allowed")) {
            assertThat(r).isNull();
        } else {
            assertThat(r.description()).startsWith("cache mode " + cache + " cannot be set on volume vol1 because the"
                                                   + " volume's own kvm/vm.ioMode is native: ");
            assertThat(r.whatToDo()).isEqualTo("Delete the volume's native override first, or keep cache mode none or directsync.");
        }
    }
}
