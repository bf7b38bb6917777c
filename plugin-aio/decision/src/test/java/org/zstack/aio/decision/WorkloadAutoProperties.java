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
 * Properties of the workload-aware {@code auto}: checks always win; a profile equal to one benchmark cell picks that
 * cell's best allowed mode; without a profile (or an idle one) the decision is exactly today's aggregate one.
 */
class WorkloadAutoProperties {

    private static final IoModeDecider DECIDER = Facts.DECIDER;
    private static final double MARGIN = Facts.RULES.measuredTieMargin();

    /** The benchmark's own shapes (4K reads/writes at 1, 16, 64; 64K writes at 16) plus generated ones. */
    @Provide
    Arbitrary<List<WorkloadCell>> cellLists() {
        Arbitrary<Double> ops = Arbitraries.doubles().between(200, 300_000);
        Arbitrary<Double> maybeOps = ops.injectNull(0.1);
        Arbitrary<WorkloadCell> cell = Combinators.combine(Arbitraries.of(0.0, 1.0, 0.5, 0.7),
                        Arbitraries.of(512.0, 4096.0, 16384.0, 65536.0, 1048576.0), Arbitraries.of(1.0, 4.0, 16.0, 64.0),
                        ops, maybeOps, maybeOps)
                .as((rf, bs, qd, t, n, u) -> cell(rf, bs, qd, t, n, u));
        return cell.list().ofMinSize(1).ofMaxSize(8).uniqueElements(c -> c.readFraction() + "/" + c.blockBytes() + "/" + c.queueDepth());
    }

    static WorkloadCell cell(double rf, double bs, double qd, Double t, Double n, Double u) {
        Map<IoMode, Double> m = new EnumMap<>(IoMode.class);
        m.put(IoMode.THREADS, t);
        if (n != null) m.put(IoMode.NATIVE, n);
        if (u != null) m.put(IoMode.IO_URING, u);
        return new WorkloadCell(rf + "-" + (long) bs + "-qd" + (long) qd, rf, bs, qd, m);
    }

    /** The aggregate is some geomean: what matters is that it is there and differs from the per-cell figures. */
    static ModePerformance perf(List<WorkloadCell> cells) {
        Map<IoMode, Double> agg = new EnumMap<>(IoMode.class);
        for (IoMode m : IoMode.values()) {
            double log = 0;
            boolean all = true;
            for (WorkloadCell c : cells) {
                if (c.ops(m) == null) all = false;
                else log += Math.log(c.ops(m) / c.ops(IoMode.THREADS));
            }
            if (all) agg.put(m, Math.exp(log / cells.size()));
        }
        return new ModePerformance(agg, "generated cells", null, cells);
    }

    /** A profile that is exactly one cell's workload (its direction's size, its depth, its read fraction). */
    static WorkloadProfile profileOf(WorkloadCell c) {
        return new WorkloadProfile(c.readFraction(), c.blockBytes(), c.blockBytes(), 100 * c.readFraction(),
                100 * (1 - c.readFraction()), c.queueDepth(), 600, "2026-01-01T00:00:00Z");
    }

    @Provide
    Arbitrary<WorkloadProfile> profiles() {
        return Combinators.combine(Arbitraries.doubles().between(0, 1), Arbitraries.doubles().between(512, 4 << 20),
                        Arbitraries.doubles().between(512, 4 << 20), Arbitraries.doubles().between(0, 5000),
                        Arbitraries.doubles().between(0, 5000), Arbitraries.doubles().between(0, 256))
                .as((rf, rb, wb, ri, wi, qd) -> new WorkloadProfile(rf, rb, wb, ri, wi, qd, 60, null));
    }

    @Provide
    Arbitrary<DecisionInput> autoInputs() {
        return Combinators.combine(Arbitraries.of(ConfigSource.class), IoModeDecisionProperties.volumes(),
                        IoModeDecisionProperties.hosts(),
                        Combinators.combine(Arbitraries.of(OnUnsatisfied.class), Arbitraries.of(true, false)).as(DecisionPolicy::new))
                .as((src, v, h, p) -> new DecisionInput(RequestedIoMode.AUTO, src, v, h, p));
    }

    private static List<IoMode> passing(DecisionInput in) {
        ModeChecks checks = new ModeChecks(Facts.RULES);
        List<IoMode> out = new ArrayList<>();
        for (IoMode m : Facts.RULES.preference()) {
            if (checks.evaluate(m, in.volume(), in.host(), in.policy(), new ArrayList<>())) out.add(m);
        }
        return out;
    }

    private static boolean notApplicable(IoModeDecision d) {
        return IoModeDecision.NOT_APPLICABLE.equals(d.effectiveWire());
    }

    /** Whatever the workload and the cells say, the pick's checks pass. */
    @Property(tries = 2000)
    void checksAlwaysWin(@ForAll("autoInputs") DecisionInput base, @ForAll("cellLists") List<WorkloadCell> cells,
                         @ForAll("profiles") WorkloadProfile w) {
        DecisionInput in = base.withPerformance(perf(cells)).withWorkload(w);
        IoModeDecision d = DECIDER.decide(in);
        assertThat(d.refused()).isFalse();
        if (notApplicable(d)) return;
        assertThat(passing(in)).contains(d.effectiveMode());
        assertThat(d.checks()).filteredOn(c -> c.mode().equals(d.effectiveWire())).allMatch(Check::passed);
        assertThat(Facts.isOneSentence(d.reason())).as("one sentence: %s", d.reason()).isTrue();
        Statistics.label("used workload").collect(d.optimizedFor() != null);
    }

    /**
     * A profile equal to a cell picks that cell's best allowed mode: measured there, within the tie margin of the
     * fastest allowed mode on that cell, and no earlier mode of the order also within it.
     */
    @Property(tries = 2000)
    void aProfileEqualToACellPicksThatCellsBestAllowedMode(@ForAll("autoInputs") DecisionInput base,
                                                          @ForAll("cellLists") List<WorkloadCell> cells) {
        WorkloadCell target = cells.get(0);
        DecisionInput in = base.withPerformance(perf(cells)).withWorkload(profileOf(target));
        IoModeDecision d = DECIDER.decide(in);
        if (notApplicable(d)) return;
        List<IoMode> allowed = passing(in).stream().filter(m -> target.ops(m) != null).toList();
        double best = allowed.stream().mapToDouble(target::ops).max().orElseThrow(); // threads always passes
        IoMode chosen = d.effectiveMode();
        assertThat(d.optimizedFor()).isEqualTo(profileOf(target));
        assertThat(target.ops(chosen)).as("measured on the cell").isNotNull();
        assertThat(target.ops(chosen)).as("within the margin of the cell's best").isGreaterThanOrEqualTo(best * (1 - MARGIN));
        for (IoMode earlier : allowed.subList(0, allowed.indexOf(chosen))) {
            assertThat(target.ops(earlier)).as("%s comes first and would tie", earlier).isLessThan(best * (1 - MARGIN));
        }
        assertThat(d.reason()).contains("observed workload (" + profileOf(target).describe() + ")");
        Statistics.label("pick").collect(chosen);
    }

    /** Any valid weights of the rules file's workloadMatch: every weight > 0, so distinct cells stay distinct. */
    @Provide
    Arbitrary<WorkloadMatch> tunables() {
        Arbitrary<Double> weight = Arbitraries.doubles().between(0.01, 1000);
        return Combinators.combine(weight, weight, weight, Arbitraries.doubles().between(0.1, 10), Arbitraries.doubles().between(0, 50))
                .as(WorkloadMatch::new);
    }

    /**
     * The guarantees hold whatever the rules file's weights are (within their validation): checks win, and a
     * profile equal to a cell (100 requests/s, above any generated idle threshold) picks that cell's best allowed mode.
     */
    @Property(tries = 1000)
    void anyValidWeightsKeepTheGuarantees(@ForAll("tunables") WorkloadMatch m, @ForAll("autoInputs") DecisionInput base,
                                          @ForAll("cellLists") List<WorkloadCell> cells, @ForAll("profiles") WorkloadProfile w) {
        IoModeDecider decider = new IoModeDecider(Facts.rulesWith(m));
        IoModeDecision any = decider.decide(base.withPerformance(perf(cells)).withWorkload(w));
        assertThat(any.refused()).isFalse();
        if (notApplicable(any)) return;
        assertThat(any.checks()).filteredOn(c -> c.mode().equals(any.effectiveWire())).allMatch(Check::passed);
        WorkloadCell target = cells.get(0);
        DecisionInput in = base.withPerformance(perf(cells)).withWorkload(profileOf(target));
        IoMode chosen = decider.decide(in).effectiveMode();
        List<IoMode> allowed = passing(in).stream().filter(x -> target.ops(x) != null).toList();
        double best = allowed.stream().mapToDouble(target::ops).max().orElseThrow();
        assertThat(target.ops(chosen)).as("within the margin of the cell's best").isGreaterThanOrEqualTo(best * (1 - MARGIN));
        for (IoMode earlier : allowed.subList(0, allowed.indexOf(chosen))) {
            assertThat(target.ops(earlier)).as("%s comes first and would tie", earlier).isLessThan(best * (1 - MARGIN));
        }
    }

    /** No profile, or an idle one: the decision is exactly the one without any workload (today's aggregate). */
    @Property(tries = 1000)
    void withoutAProfileAutoKeepsTheAggregate(@ForAll("autoInputs") DecisionInput base,
                                              @ForAll("cellLists") List<WorkloadCell> cells,
                                              @ForAll("profiles") WorkloadProfile w) {
        DecisionInput in = base.withPerformance(perf(cells));
        DecisionInput withoutCells = in.withPerformance(new ModePerformance(in.performance().scores(),
                in.performance().metric(), null));
        WorkloadProfile idle = new WorkloadProfile(w.readFraction(), w.avgReadBytes(), w.avgWriteBytes(), 0, 0,
                w.avgQueueDepth(), 60, null);
        IoModeDecision plain = DECIDER.decide(withoutCells);
        assertThat(DECIDER.decide(in).effectiveMode()).isEqualTo(plain.effectiveMode());
        assertThat(DECIDER.decide(in).reason()).isEqualTo(plain.reason());
        assertThat(DECIDER.decide(in.withWorkload(idle)).reason()).isEqualTo(plain.reason());
        assertThat(DECIDER.decide(withoutCells.withWorkload(w)).reason()).as("no cells: the aggregate").isEqualTo(plain.reason());
        assertThat(DECIDER.decide(in.withWorkload(idle)).optimizedFor()).isNull();
    }

    /** The workload only ever informs auto: a concrete request decides exactly as without it. */
    @Property(tries = 500)
    void aWorkloadNeverChangesAConcreteRequest(@ForAll("autoInputs") DecisionInput base, @ForAll("cellLists") List<WorkloadCell> cells,
                                               @ForAll("profiles") WorkloadProfile w, @ForAll RequestedIoMode r) {
        if (r == RequestedIoMode.AUTO) return;
        DecisionInput in = new DecisionInput(r, base.source(), base.volume(), base.host(), base.policy(), perf(cells));
        assertThat(DECIDER.decide(in.withWorkload(w))).isEqualTo(DECIDER.decide(in));
    }
}
