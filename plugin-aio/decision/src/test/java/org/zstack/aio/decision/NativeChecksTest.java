package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.zstack.aio.decision.Facts.*;
import java.util.Set;

/** docs/contract.md, "The decision", item 2: native needs O_DIRECT (cache none/directsync) and, on file storage, a non-sparse image. */
class NativeChecksTest {

    // ---- cache mode --------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"none", "directsync"})
    void cacheModesWithODirectPassNative(String cache) {
        for (VolumeFacts v : List.of(volume("SharedBlock", "raw", "none", cache), volume("LocalStorage", "qcow2", "full", cache))) {
            IoModeDecision d = decide(RequestedIoMode.NATIVE, v, null, FAIL);

            Check c = check(d, "native", "cache-mode");
            assertThat(c.passed()).isTrue();
            assertThat(c.message()).contains(cache).contains("O_DIRECT");
            assertThat(d.refused()).isFalse();
            assertThat(d.effectiveWire()).isEqualTo("native");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"writethrough", "writeback"})
    void cacheModesThroughThePageCacheFailNative(String cache) {
        // Block storage and a fully preallocated file: cache mode is the only thing that can fail.
        for (VolumeFacts v : List.of(volume("SharedBlock", "raw", "none", cache), volume("LocalStorage", "qcow2", "full", cache))) {
            IoModeDecision d = decide(RequestedIoMode.NATIVE, v, null, FAIL);

            Check c = check(d, "native", "cache-mode");
            assertThat(c.passed()).isFalse();
            assertThat(c.message()).contains(cache).contains("none or directsync");
            assertThat(failedNames(d, "native")).containsExactly("cache-mode");
            assertThat(d.refused()).isTrue();
            assertThat(d.effectiveWire()).isNull();
            assertThat(d.reason()).contains("cache-mode").contains(cache);
        }
    }

    @Test
    void unknownCacheModeFailsNativeInsteadOfCrashing() {
        // found by IoModeDecisionProperties: a null cache mode used to throw NullPointerException
        IoModeDecision refused = decide(RequestedIoMode.NATIVE, volume("SharedBlock", "raw", "none", null), null, FAIL);
        assertThat(failedNames(refused, "native")).containsExactly("cache-mode");
        assertThat(check(refused, "native", "cache-mode").message()).contains("unknown").contains("none or directsync");
        assertThat(refused.refused()).isTrue();
        assertThat(decide(RequestedIoMode.AUTO, volume("SharedBlock", "raw", "none", null), null, FAIL).effectiveWire())
                .isEqualTo("threads");
    }

    @Test
    void nativeCacheModesComeFromTheRules() {
        // The set is data: a rules file that also allows writethrough makes it pass.
        IoModeRules widened = new IoModeRules(RULES.storageTypes(), Set.of("none", "directsync", "writethrough"),
                RULES.nonSparsePreallocations(), RULES.minKernel(), RULES.minQemu(), RULES.minLibvirt(),
                RULES.preference(), RULES.knownBad());
        IoModeDecision d = new IoModeDecider(widened).decide(
                in(RequestedIoMode.NATIVE, volume("SharedBlock", "raw", "none", "writethrough"), null, FAIL));
        assertThat(check(d, "native", "cache-mode").passed()).isTrue();
        assertThat(d.effectiveWire()).isEqualTo("native");
    }

    // ---- sparse images on file storage -------------------------------------------------------------------

    /** preallocation × allowFalloc → does native's non-sparse-image check pass? (sizes unknown) */
    private static final Object[][] PREALLOC_TABLE = {
            {"none", false, false}, {"none", true, false},
            {"metadata", false, false}, {"metadata", true, false},
            {"falloc", false, false}, {"falloc", true, true},
            {"full", false, true}, {"full", true, true},
    };

    static Stream<Arguments> fileStorageTable() {
        List<Arguments> out = new ArrayList<>();
        for (String type : List.of("LocalStorage", "NFS", "SharedMountPoint")) {
            for (String format : List.of("qcow2", "raw")) {
                for (Object[] row : PREALLOC_TABLE) out.add(Arguments.of(type, format, row[0], row[1], row[2]));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} preallocation={2} allowFalloc={3} -> passes={4}")
    @MethodSource("fileStorageTable")
    void fileStorageNeedsANonSparseImage(String type, String format, String prealloc, boolean allowFalloc, boolean passes) {
        IoModeDecision d = DECIDER.decide(in(RequestedIoMode.NATIVE, volume(type, format, prealloc, "none"), null,
                new DecisionPolicy(OnUnsatisfied.FAIL, allowFalloc)));

        Check c = check(d, "native", "non-sparse-image");
        assertThat(c.passed()).isEqualTo(passes);
        assertThat(c.message()).contains(prealloc);
        assertThat(d.refused()).isEqualTo(!passes);
        assertThat(d.effectiveWire()).isEqualTo(passes ? "native" : null);
        if (!passes) {
            assertThat(d.reason()).contains("non-sparse-image");
            assertThat(c.message()).containsAnyOf("preallocation full", "preallocate full");
        }
        if ("falloc".equals(prealloc) && !allowFalloc) {
            assertThat(c.message()).contains("allowFalloc");
        }
    }

    @Test
    void unknownPreallocationIsTreatedAsNone() {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, volume("NFS", "qcow2", null, "none"), null, FAIL);
        Check c = check(d, "native", "non-sparse-image");
        assertThat(c.passed()).isFalse();
        assertThat(c.message()).contains("preallocation none");
    }

    @ParameterizedTest
    @ValueSource(strings = {"LocalStorage", "NFS", "SharedMountPoint"})
    void rawImageMeasuredFullyAllocatedPassesWithoutPreallocationFlag(String type) {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, measured(type, "raw", "none", 10 * GIB, 10 * GIB), null, FAIL);
        Check c = check(d, "native", "non-sparse-image");
        assertThat(c.passed()).isTrue();
        assertThat(c.message()).contains(String.valueOf(10 * GIB));
        assertThat(d.effectiveWire()).isEqualTo("native");
    }

    @Test
    void rawImageMeasuredSparseFails() {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, measured("NFS", "raw", "none", 10 * GIB, GIB), null, FAIL);
        Check c = check(d, "native", "non-sparse-image");
        assertThat(c.passed()).isFalse();
        assertThat(c.message()).contains("sparse").contains(GIB + " of " + 10 * GIB);
    }

    @Test
    void qcow2FlaggedFullButMeasuredSparseFails() {
        // The measurement wins over the preallocation flag: the image really has holes.
        IoModeDecision d = decide(RequestedIoMode.NATIVE, measured("LocalStorage", "qcow2", "full", 10 * GIB, 3 * GIB), null, FAIL);
        Check c = check(d, "native", "non-sparse-image");
        assertThat(c.passed()).isFalse();
        assertThat(c.message()).contains("sparse").contains("preallocation full").contains(3 * GIB + " of " + 10 * GIB);
        assertThat(d.refused()).isTrue();
    }

    @Test
    void qcow2FlaggedFullAndMeasuredAllocatedPasses() {
        // qcow2 metadata makes the file a little bigger than the virtual size.
        IoModeDecision d = decide(RequestedIoMode.NATIVE, measured("LocalStorage", "qcow2", "full", 10 * GIB, 10 * GIB + 2_000_000), null, FAIL);
        assertThat(check(d, "native", "non-sparse-image").passed()).isTrue();
    }

    @Test
    void onlyRawCountsAsNonSparseByMeasurementAlone() {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, measured("NFS", "qcow2", "none", 10 * GIB, 10 * GIB), null, FAIL);
        assertThat(check(d, "native", "non-sparse-image").passed()).isFalse();
    }

    @Test
    void falloc_isJudgedByThePolicyEvenWhenMeasuredFull() {
        // fallocate makes du report the full size while the extents stay unwritten: allowFalloc decides, not the measurement.
        VolumeFacts v = measured("NFS", "raw", "falloc", 10 * GIB, 10 * GIB);
        assertThat(check(DECIDER.decide(in(RequestedIoMode.NATIVE, v, null, new DecisionPolicy(OnUnsatisfied.FAIL, false))),
                "native", "non-sparse-image").passed()).isFalse();
        assertThat(check(DECIDER.decide(in(RequestedIoMode.NATIVE, v, null, new DecisionPolicy(OnUnsatisfied.FAIL, true))),
                "native", "non-sparse-image").passed()).isTrue();
    }

    /** measured, not sparse by the measurement, judged by the policy: the sentence names the figures either way */
    @ParameterizedTest(name = "{0} {1} preallocation={2} allowFalloc={3} measured full -> passes={4}")
    @CsvSource({
            "LocalStorage, qcow2, full,   false, true",
            "LocalStorage, qcow2, none,   false, false",
            "NFS,          qcow2, falloc, false, false",
            "NFS,          qcow2, falloc, true,  true",
            "NFS,          raw,   none,   false, true",
    })
    void aMeasuredVolumeJudgedByItsPolicyNamesTheFigures(String type, String format, String prealloc, boolean allowFalloc,
                                                         boolean passes) {
        long actual = 10 * GIB + 2_000_000;
        VolumeFacts v = measured(type, format, prealloc, 10 * GIB, actual);
        Check c = check(DECIDER.decide(in(RequestedIoMode.NATIVE, v, null, new DecisionPolicy(OnUnsatisfied.FAIL, allowFalloc))),
                "native", "non-sparse-image");
        assertThat(c.passed()).isEqualTo(passes);
        assertThat(c.message()).contains(actual + " of " + 10 * GIB + " bytes allocated");
    }

    @ParameterizedTest
    @CsvSource({"0,0", "0,5"})
    void zeroVirtualSizeIsNotAMeasurement(long virtual, long actual) {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, measured("NFS", "raw", "none", virtual, actual), null, FAIL);
        Check c = check(d, "native", "non-sparse-image");
        assertThat(c.passed()).isFalse();
        assertThat(c.message()).contains("preallocation none");
    }

    @Test
    void unknownStorageTypeIsTreatedAsFileStorage() {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, volume("ZBS", "qcow2", "none", "none"), null, FAIL);
        assertThat(check(d, "native", "non-sparse-image").passed()).isFalse();
        assertThat(decide(RequestedIoMode.NATIVE, volume("ZBS", "qcow2", "full", "none"), null, FAIL).effectiveWire())
                .isEqualTo("native");
    }

    // ---- block storage ------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"none", "metadata", "falloc", "full"})
    void blockStorageHasNoSparseImageConcern(String prealloc) {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, volume("SharedBlock", "raw", prealloc, "none"), null, FAIL);
        Check c = check(d, "native", "non-sparse-image");
        assertThat(c.passed()).isTrue();
        assertThat(c.message()).contains("block device");
        assertThat(d.effectiveWire()).isEqualTo("native");
    }

    @Test
    void blockStoragePassesEvenWhenMeasuredThin() {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, measured("SharedBlock", "qcow2", "none", 10 * GIB, GIB), null, FAIL);
        assertThat(check(d, "native", "non-sparse-image").passed()).isTrue();
        assertThat(d.effectiveWire()).isEqualTo("native");
    }

    @Test
    void blockStorageStillNeedsODirect() {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, volume("SharedBlock", "raw", "full", "writeback"), null, FAIL);
        assertThat(failedNames(d, "native")).containsExactly("cache-mode");
        assertThat(d.refused()).isTrue();
    }

    @Test
    void bothNativeChecksAreReportedWhenBothFail() {
        IoModeDecision d = decide(RequestedIoMode.NATIVE, volume("NFS", "qcow2", "none", "writeback"), null, FAIL);
        assertThat(failedNames(d, "native")).containsExactly("cache-mode", "non-sparse-image");
        // the reason names the first failed check
        assertThat(d.reason()).contains("cache-mode").doesNotContain("non-sparse-image");
    }

    @Test
    void nativeDoesNotLookAtTheHost() {
        IoModeDecision withHost = decide(RequestedIoMode.NATIVE, nativeOk(), host("3.10", 2, "2.0", false, "1.0.0"), FAIL);
        assertThat(withHost.effectiveWire()).isEqualTo("native");
        assertThat(checksOf(withHost, "native")).extracting(Check::check).containsExactly("cache-mode", "non-sparse-image");
    }
}
