package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.zstack.aio.decision.Facts.FALLBACK;
import static org.zstack.aio.decision.Facts.goodHost;
import static org.zstack.aio.decision.Facts.volume;

/** auto with and without the benchmark's measurements, on concrete cases. */
class MeasuredAutoTest {

    private static ModePerformance perf(double threads, double nat, double uring) {
        return new ModePerformance(Map.of(IoMode.THREADS, threads, IoMode.NATIVE, nat, IoMode.IO_URING, uring),
                "4K random write qd64 ops/s", "2025-01-01T00:00:00Z");
    }

    private static IoModeDecision auto(VolumeFacts v, ModePerformance p) {
        return Facts.DECIDER.decide(new DecisionInput(RequestedIoMode.AUTO, ConfigSource.GLOBAL, v, goodHost(), FALLBACK, p));
    }

    @Test
    void measuredFastestPassingModeWins() {
        VolumeFacts full = volume("LocalStorage", "qcow2", "full", "none");
        IoModeDecision d = auto(full, perf(70_000, 153_000, 105_000));
        assertThat(d.effectiveWire()).isEqualTo("native");
        assertThat(d.reason()).isEqualTo("auto requested (global) chose native: fastest measured on this storage, "
                + "2.19x threads (measured native 2.19x, io_uring 1.50x, threads 1.00x, 4K random write qd64 ops/s).");
        assertThat(Facts.isOneSentence(d.reason())).isTrue();
    }

    @Test
    void withoutMeasurementsTheStaticOrderStays() {
        VolumeFacts full = volume("LocalStorage", "qcow2", "full", "none");
        assertThat(auto(full, null).effectiveWire()).isEqualTo("io_uring");
        assertThat(auto(full, null).reason()).doesNotContain("measured");
        assertThat(auto(full, null).reason()).isEqualTo("auto requested (global) chose io_uring, the best mode in the preference"
                + " order, whose checks all passed (no benchmark figures of this storage for the volume's image kind).");
    }

    @Test
    void aSparseImageNeverGetsNativeEvenWhenItMeasuredFastest() {
        VolumeFacts sparse = volume("LocalStorage", "qcow2", "metadata", "none");
        IoModeDecision d = auto(sparse, perf(13_300, 68_500, 65_100));
        assertThat(d.effectiveWire()).isEqualTo("io_uring");
        assertThat(d.reason()).contains("fastest measured").contains("native is ruled out by check");
    }

    @Test
    void aTieWithinTheMarginKeepsThePreferenceOrder() {
        VolumeFacts full = volume("LocalStorage", "raw", "full", "none");
        IoModeDecision d = auto(full, perf(57_500, 72_400, 71_400)); // io_uring 1.4% behind native
        assertThat(d.effectiveWire()).isEqualTo("io_uring");
        assertThat(d.reason()).contains("within 5% of the fastest measured on this storage (native)");
    }

    @Test
    void threadsWinsWhenItIsReallyFastest() {
        VolumeFacts full = volume("LocalStorage", "raw", "full", "none");
        assertThat(auto(full, perf(100_000, 60_000, 70_000)).effectiveWire()).isEqualTo("threads");
    }

    @Test
    void unmeasuredModesAreNotPreferredAndNoPassingMeasurementMeansStatic() {
        VolumeFacts full = volume("LocalStorage", "raw", "full", "none");
        ModePerformance onlyNative = new ModePerformance(Map.of(IoMode.NATIVE, 5.0), "x", null);
        assertThat(auto(full, onlyNative).effectiveWire()).isEqualTo("native");
        VolumeFacts sparse = volume("NFS", "qcow2", "none", "none");
        IoModeDecision d = auto(sparse, onlyNative);
        assertThat(d.effectiveWire()).isEqualTo("io_uring");
        assertThat(d.reason()).doesNotContain("measured")
                .endsWith("chose io_uring, the best mode in the preference order, whose checks all passed (the benchmark"
                          + " has no figure for a mode whose checks pass).");
    }

    @Test
    void theTieMarginIsData() {
        assertThat(Facts.RULES.measuredTieMargin()).isEqualTo(0.05);
    }
}
