package org.zstack.aio.server.iomode;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.decision.Version;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.decision.rules.IoModeRulesLoader;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** How the impact preview counts decisions: per effective mode, fallbacks, refusals, and the reasons grouped. */
class IoModeOverviewTallyTest {

    private static final IoModeDecider DECIDER = new IoModeDecider(IoModeRulesLoader.fromClasspath());
    private static final HostFacts OLD_KERNEL = new HostFacts("h", Version.parse("4.19"), 0, Version.parse("8.2"), true,
            Version.parse("9.0"));
    private static final HostFacts GOOD = new HostFacts("h", Version.parse("6.1"), 0, Version.parse("8.2"), true,
            Version.parse("9.0"));
    private static final DecisionPolicy FALLBACK = new DecisionPolicy(OnUnsatisfied.FALLBACK, false);
    private static final DecisionPolicy FAIL = new DecisionPolicy(OnUnsatisfied.FAIL, false);

    private static IoModeDecision decide(RequestedIoMode r, String storage, String prealloc, HostFacts h, DecisionPolicy p) {
        return DECIDER.decide(new DecisionInput(r, ConfigSource.GLOBAL,
                new VolumeFacts("v", storage, "qcow2", prealloc, 1L << 30, null, "none"), h, p));
    }

    record Entry(String name, List<IoModeDecision> decisions, Map<String, Long> byEffective, long fallbacks, long refused,
                 List<String> reasonKeys, List<Long> reasonCounts) {
        @Override
        public String toString() { return name; }
    }

    static Stream<Entry> entries() {
        IoModeDecision sparseNative = decide(RequestedIoMode.NATIVE, "NFS", "none", GOOD, FALLBACK);
        IoModeDecision uringOld = decide(RequestedIoMode.IO_URING, "SharedBlock", "none", OLD_KERNEL, FALLBACK);
        IoModeDecision refusedNative = decide(RequestedIoMode.NATIVE, "NFS", "none", GOOD, FAIL);
        IoModeDecision autoGood = decide(RequestedIoMode.AUTO, "NFS", "none", GOOD, FALLBACK);
        IoModeDecision ceph = decide(RequestedIoMode.NATIVE, "Ceph", "none", GOOD, FALLBACK);
        return Stream.of(
                new Entry("nothing", List.of(), Map.of(), 0, 0, List.of(), List.of()),
                new Entry("auto is never a fallback", List.of(autoGood, autoGood), Map.of("io_uring", 2L), 0, 0, List.of(), List.of()),
                new Entry("network storage is not-applicable, not a fallback", List.of(ceph), Map.of("not-applicable", 1L), 0, 0,
                        List.of(), List.of()),
                new Entry("fallbacks grouped by their first failed check", List.of(sparseNative, sparseNative, uringOld),
                        Map.of("threads", 2L, "native", 1L), 3, 0,
                        List.of("native/non-sparse-image", "io_uring/kernel-version"), List.of(2L, 1L)),
                new Entry("a refusal counts apart and has no effective mode", List.of(refusedNative, autoGood),
                        Map.of("io_uring", 1L), 0, 1, List.of("native/non-sparse-image"), List.of(1L)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("entries")
    void tallies(Entry e) {
        IoModeOverview.Tally t = IoModeOverview.tally(e.decisions());
        assertThat(t.byEffective()).isEqualTo(e.byEffective());
        assertThat(t.fallbacks()).isEqualTo(e.fallbacks());
        assertThat(t.refused()).isEqualTo(e.refused());
        assertThat(t.reasons()).extracting(r -> r.mode() + "/" + r.check()).containsExactlyElementsOf(e.reasonKeys());
        assertThat(t.reasons()).extracting(IoModeOverview.ReasonGroup::volumes).containsExactlyElementsOf(e.reasonCounts());
        assertThat(t.reasons()).allSatisfy(r -> assertThat(r.example()).isNotBlank());
    }
}
