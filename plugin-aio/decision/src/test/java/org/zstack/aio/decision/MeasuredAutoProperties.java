package org.zstack.aio.decision;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Properties of {@code auto} with measured performance (the agent's benchmark): checks always win, and among the
 * passing measured modes the fastest is chosen unless an earlier mode of the preference order ties within
 * measuredTieMargin.
 */
class MeasuredAutoProperties {

    private static final IoModeDecider DECIDER = Facts.DECIDER;
    private static final List<IoMode> PREFERENCE = Facts.RULES.preference();
    private static final double MARGIN = Facts.RULES.measuredTieMargin();

    @Provide
    Arbitrary<ModePerformance> performances() {
        // independent scores, or scores near each other (ties within and just outside the margin)
        Arbitrary<Double> score = Arbitraries.doubles().between(500, 200_000).injectNull(0.15);
        Arbitrary<ModePerformance> independent = Combinators.combine(score, score, score)
                .as((t, n, u) -> perf(t, n, u));
        Arbitrary<Double> near = Arbitraries.doubles().between(0.9, 1.1);
        Arbitrary<ModePerformance> close = Combinators.combine(Arbitraries.doubles().between(1000, 100_000), near, near)
                .as((t, n, u) -> perf(t, t * n, t * u));
        return Arbitraries.oneOf(independent, close);
    }

    private static ModePerformance perf(Double threads, Double nat, Double uring) {
        Map<IoMode, Double> m = new EnumMap<>(IoMode.class);
        if (threads != null) m.put(IoMode.THREADS, threads);
        if (nat != null) m.put(IoMode.NATIVE, nat);
        if (uring != null) m.put(IoMode.IO_URING, uring);
        return new ModePerformance(m, "generated ops/s", null);
    }

    @Provide
    Arbitrary<DecisionInput> measuredAuto() {
        return Combinators.combine(Arbitraries.of(ConfigSource.class), IoModeDecisionProperties.volumes(),
                        IoModeDecisionProperties.hosts(),
                        Combinators.combine(Arbitraries.of(OnUnsatisfied.class), Arbitraries.of(true, false)).as(DecisionPolicy::new),
                        performances())
                .as((src, v, h, p, perf) -> new DecisionInput(RequestedIoMode.AUTO, src, v, h, p, perf));
    }

    @Provide
    Arbitrary<DecisionInput> measuredAny() {
        return Combinators.combine(Arbitraries.of(RequestedIoMode.class), measuredAuto())
                .as((r, in) -> new DecisionInput(r, in.source(), in.volume(), in.host(), in.policy(), in.performance()));
    }

    /** The modes whose checks pass for this input, in preference order (evaluated independently of the decider). */
    private static List<IoMode> passing(DecisionInput in) {
        ModeChecks checks = new ModeChecks(Facts.RULES);
        List<IoMode> out = new ArrayList<>();
        for (IoMode m : PREFERENCE) if (checks.evaluate(m, in.volume(), in.host(), in.policy(), new ArrayList<>())) out.add(m);
        return out;
    }

    /** auto never picks a mode whose checks fail, whatever the measurements say (a sparse image never gets native). */
    @Property(tries = 3000)
    void autoNeverPicksAFailingModeEvenWithMeasurements(@ForAll("measuredAuto") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        assertThat(d.refused()).isFalse();
        if (IoModeDecision.NOT_APPLICABLE.equals(d.effectiveWire())) return;
        Statistics.label("effective").collect(d.effectiveWire());
        assertThat(passing(in)).contains(d.effectiveMode());
        assertThat(d.checks()).filteredOn(c -> c.mode().equals(d.effectiveWire())).allMatch(Check::passed);
        assertThat(Facts.isOneSentence(d.reason())).as("one sentence: %s", d.reason()).isTrue();
    }

    /** With measurements auto picks the fastest passing measured mode, unless an earlier one is within the tie margin. */
    @Property(tries = 3000)
    void autoPicksTheFastestPassingModeUnlessWithinTheTieMargin(@ForAll("measuredAuto") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        if (IoModeDecision.NOT_APPLICABLE.equals(d.effectiveWire())) return;
        ModePerformance perf = in.performance();
        List<IoMode> candidates = passing(in).stream().filter(m -> perf.score(m) != null).toList();
        if (candidates.isEmpty()) {
            Statistics.label("path").collect("static");
            IoModeDecision plain = DECIDER.decide(in.withPerformance(null));
            assertThat(d.effectiveWire()).isEqualTo(plain.effectiveWire());
            return;
        }
        double best = candidates.stream().mapToDouble(perf::score).max().orElseThrow();
        IoMode chosen = d.effectiveMode();
        assertThat(perf.score(chosen)).as("the pick was measured").isNotNull();
        assertThat(perf.score(chosen)).as("within the margin of the best").isGreaterThanOrEqualTo(best * (1 - MARGIN));
        for (IoMode earlier : candidates.subList(0, candidates.indexOf(chosen))) {
            assertThat(perf.score(earlier)).as("%s comes first in the order and would tie", earlier)
                    .isLessThan(best * (1 - MARGIN));
        }
        Statistics.label("path").collect(perf.score(chosen) == best ? "fastest" : "tie kept order");
        assertThat(d.reason()).contains("measured");
    }

    /** Measurements only ever inform auto: a concrete request decides exactly as without them. */
    @Property(tries = 1500)
    void measurementsNeverChangeAConcreteRequest(@ForAll("measuredAny") DecisionInput in) {
        if (in.requested() == RequestedIoMode.AUTO) return;
        assertThat(DECIDER.decide(in)).isEqualTo(DECIDER.decide(in.withPerformance(null)));
    }

    /** An empty measurement is the same as none. */
    @Property(tries = 500)
    void emptyMeasurementsKeepTheStaticOrder(@ForAll("measuredAuto") DecisionInput in) {
        DecisionInput empty = in.withPerformance(new ModePerformance(Map.of(), "nothing", null));
        assertThat(DECIDER.decide(empty)).isEqualTo(DECIDER.decide(in.withPerformance(null)));
    }
}
