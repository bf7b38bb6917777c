package org.zstack.aio.decision;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.zstack.aio.decision.Facts.DECIDER;
import static org.zstack.aio.decision.Facts.bothOk;
import static org.zstack.aio.decision.Facts.FAIL;
import static org.zstack.aio.decision.Facts.FALLBACK;
import static org.zstack.aio.decision.Facts.RULES;
import static org.zstack.aio.decision.Facts.decide;
import static org.zstack.aio.decision.Facts.goodHost;
import static org.zstack.aio.decision.Facts.host;
import static org.zstack.aio.decision.Facts.in;
import static org.zstack.aio.decision.Facts.nativeOk;
import static org.zstack.aio.decision.Facts.nativeSparse;
import static org.zstack.aio.decision.Facts.volume;
import static org.zstack.aio.decision.IoMode.IO_URING;
import static org.zstack.aio.decision.IoMode.NATIVE;
import static org.zstack.aio.decision.IoMode.THREADS;

/**
 * What the decider owns besides the decision: the candidate chain the agent steps down at start, whether one mode
 * passes ({@code check}, {@code checkHost}), and how refusals at start fold into the decision ({@code withRefusals}).
 */
class OwnershipTest {

    private static final HostFacts OLD_KERNEL = host("4.19", 0, "8.2.0", true, "9.0.0");
    private static final HostFacts LVM_OLD_KERNEL = host("5.15", 0, "8.2.0", true, "9.0.0");
    private static final HostFacts QEMU_71 = host("6.1", 0, "7.1.0", true, "9.0.0");
    private static final IoModeRules NO_NATIVE = new IoModeRules(RULES.storageTypes(), RULES.nativeCacheModes(),
            RULES.nonSparsePreallocations(), RULES.minKernel(), RULES.minQemu(), RULES.minLibvirt(), List.of(IO_URING, THREADS),
            RULES.knownBad());

    static Stream<Arguments> chains() {
        return Stream.of(
                // name, rules, requested, volume, host, policy, expected candidates
                Arguments.of("io_uring passes, native passes on a preallocated NFS image", RULES, RequestedIoMode.IO_URING, bothOk(), goodHost(), FALLBACK,
                        List.of(IO_URING, NATIVE, THREADS)),
                Arguments.of("fail policy: no step down", RULES, RequestedIoMode.IO_URING, bothOk(), goodHost(), FAIL, List.of(IO_URING)),
                Arguments.of("auto on a sparse file skips native", RULES, RequestedIoMode.AUTO, nativeSparse(), goodHost(), FALLBACK,
                        List.of(IO_URING, THREADS)),
                Arguments.of("native then threads", RULES, RequestedIoMode.NATIVE, nativeOk(), goodHost(), FALLBACK, List.of(NATIVE, THREADS)),
                Arguments.of("threads is the end", RULES, RequestedIoMode.THREADS, nativeOk(), goodHost(), FALLBACK, List.of(THREADS)),
                Arguments.of("io_uring fell back to native", RULES, RequestedIoMode.IO_URING, nativeOk(), OLD_KERNEL, FALLBACK,
                        List.of(NATIVE, THREADS)),
                Arguments.of("network storage takes no io attribute", RULES, RequestedIoMode.AUTO,
                        volume("Ceph", "raw", "none", "none"), goodHost(), FALLBACK, List.of()),
                Arguments.of("refused: nothing to try", RULES, RequestedIoMode.NATIVE, nativeSparse(), goodHost(), FAIL, List.of()),
                Arguments.of("a chain without native skips it", NO_NATIVE, RequestedIoMode.IO_URING, bothOk(), goodHost(), FALLBACK,
                        List.of(IO_URING, THREADS)),
                Arguments.of("a mode left out of the chain steps to threads", NO_NATIVE, RequestedIoMode.NATIVE, nativeOk(), goodHost(),
                        FALLBACK, List.of(NATIVE, THREADS)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void candidateChain(String name, IoModeRules rules, RequestedIoMode requested, VolumeFacts v, HostFacts h, DecisionPolicy p,
                        List<IoMode> expected) {
        IoModeDecision d = new IoModeDecider(rules).decide(in(requested, v, h, p));
        assertThat(d.candidates()).containsExactlyElementsOf(expected);
        if (!expected.isEmpty()) assertThat(d.candidates().get(0)).isEqualTo(d.effectiveMode());
    }

    static Stream<Arguments> checks() {
        return Stream.of(
                // name, mode, volume, host, policy, passes, first failed check (null: none)
                Arguments.of("native on a sparse NFS image", NATIVE, nativeSparse(), null, FALLBACK, false, "non-sparse-image"),
                Arguments.of("native on an LV", NATIVE, nativeOk(), null, FALLBACK, true, null),
                Arguments.of("native with writeback", NATIVE, volume("SharedBlock", "raw", "none", "writeback"), null, FALLBACK, false,
                        "cache-mode"),
                Arguments.of("falloc counts only when allowed", NATIVE, volume("NFS", "qcow2", "falloc", "none"), null,
                        new DecisionPolicy(OnUnsatisfied.FALLBACK, true), true, null),
                Arguments.of("falloc is sparse by default", NATIVE, volume("NFS", "qcow2", "falloc", "none"), null, FALLBACK, false,
                        "non-sparse-image"),
                Arguments.of("anything passes on network storage", NATIVE, volume("Ceph", "raw", "none", "writeback"), null, FALLBACK,
                        true, null),
                Arguments.of("io_uring without a host", IO_URING, nativeOk(), null, FALLBACK, false, "host-facts"),
                Arguments.of("io_uring on an old kernel", IO_URING, nativeOk(), OLD_KERNEL, FALLBACK, false, "kernel-version"),
                Arguments.of("io_uring on an LV, any kernel", IO_URING, nativeOk(), goodHost(), FALLBACK, false,
                        "known-bad:lvm-io_uring"),
                Arguments.of("threads always", THREADS, nativeSparse(), null, FAIL, true, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("checks")
    void checkOneMode(String name, IoMode mode, VolumeFacts v, HostFacts h, DecisionPolicy p, boolean passes, String failed) {
        CheckResult r = DECIDER.check(mode, v, h, p);
        assertThat(r.passed()).isEqualTo(passes);
        assertThat(r.firstFailure() == null ? null : r.firstFailure().check()).isEqualTo(failed);
        // the same answer as a decision that asks for the mode and may not fall back
        IoModeDecision d = DECIDER.decide(new DecisionInput(RequestedIoMode.of(mode), ConfigSource.GLOBAL, v, h,
                new DecisionPolicy(OnUnsatisfied.FAIL, p.allowFalloc())));
        assertThat(d.refused()).isEqualTo(!passes);
    }

    static Stream<Arguments> hosts() {
        return Stream.of(
                Arguments.of("a good host", goodHost(), true, null),
                Arguments.of("an old kernel", OLD_KERNEL, false, "kernel-version"),
                Arguments.of("QEMU 7.1 is known bad whatever the storage", QEMU_71, false, "known-bad:qemu-7.1-io_uring-hang"),
                Arguments.of("the LVM rule needs an LV, not a host", LVM_OLD_KERNEL, true, null),
                Arguments.of("an unknown host", null, false, "host-facts"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hosts")
    void ioUringOnAHost(String name, HostFacts h, boolean passes, String failed) {
        CheckResult r = DECIDER.checkHost(IO_URING, h);
        assertThat(r.passed()).isEqualTo(passes);
        assertThat(r.firstFailure() == null ? null : r.firstFailure().check()).isEqualTo(failed);
    }

    @Test
    void refusalsAtStartBecomeFailedChecksAndTheAppliedModeIsEffective() {
        IoModeDecision d = decide(RequestedIoMode.IO_URING, bothOk(), goodHost(), FALLBACK);
        IoModeDecision after = d.withRefusals(List.of(new Refusal(IO_URING, "io_uring not supported")), NATIVE);
        assertThat(after.effectiveMode()).isEqualTo(NATIVE);
        assertThat(after.refused()).isFalse();
        assertThat(after.checks()).hasSize(d.checks().size() + 1).last().satisfies(c -> {
            assertThat(c.mode()).isEqualTo("io_uring");
            assertThat(c.check()).isEqualTo("accepted-at-start");
            assertThat(c.passed()).isFalse();
            assertThat(c.message()).isEqualTo("libvirt/QEMU refused io=io_uring at start: io_uring not supported");
        });
        assertThat(after.reason()).isEqualTo(d.reason() + " At start libvirt/QEMU refused io_uring (io_uring not supported),"
                                             + " so native was applied.");
        assertThat(after.requested()).isEqualTo(d.requested());
        assertThat(after.source()).isEqualTo(d.source());
    }

    @Test
    void twoRefusalsAndNoIoAttributeMeanThreads() {
        IoModeDecision d = decide(RequestedIoMode.IO_URING, bothOk(), goodHost(), FALLBACK);
        IoModeDecision after = d.withRefusals(List.of(new Refusal(IO_URING, "e1"), new Refusal(NATIVE, "e2")), null);
        assertThat(after.effectiveMode()).isEqualTo(THREADS);
        assertThat(after.reason()).endsWith(" At start libvirt/QEMU refused io_uring (e1); native (e2), so threads was applied.");
    }

    @Test
    void noRefusalChangesNothing() {
        IoModeDecision d = decide(RequestedIoMode.AUTO, nativeOk(), goodHost(), FALLBACK);
        assertThat(d.withRefusals(List.of(), IO_URING)).isSameAs(d);
    }

    @Test
    void everyModeIsDeclaredOnceWithItsWireName() {
        assertThat(Stream.of(IoMode.values()).map(IoMode::wire)).containsExactly("threads", "native", "io_uring");
        for (IoMode m : IoMode.values()) {
            assertThat(RequestedIoMode.of(m).mode()).isEqualTo(m);
            assertThat(RequestedIoMode.fromWire(m.wire()).wire()).isEqualTo(m.wire());
        }
        assertThat(RequestedIoMode.AUTO.wire()).isEqualTo("auto");
        assertThat(IoMode.fromWireOrNull("aio")).isNull();
    }
}
