package org.zstack.aio.decision;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Builders;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Properties of the decision for arbitrary facts, request, source and policy (docs/contract.md, "The decision"), against the rules
 * shipped in conf/aio/io-mode-rules.yaml.
 */
class IoModeDecisionProperties {

    private static final IoModeDecider DECIDER = Facts.DECIDER;
    private static final List<IoMode> PREFERENCE = Facts.RULES.preference();

    // ---- generators ----------------------------------------------------------------------------------------

    @Provide
    Arbitrary<DecisionInput> inputs() {
        return Combinators.combine(requested(), Arbitraries.of(ConfigSource.class), volumes(), hosts(), policies())
                .as(DecisionInput::new);
    }

    @Provide
    Arbitrary<DecisionInput> autoInputs() {
        return Combinators.combine(Arbitraries.just(RequestedIoMode.AUTO), Arbitraries.of(ConfigSource.class), volumes(),
                hosts(), policies()).as(DecisionInput::new);
    }

    @Provide
    Arbitrary<DecisionInput> fallbackInputs() {
        return Combinators.combine(requested(), Arbitraries.of(ConfigSource.class), volumes(), hosts(),
                Arbitraries.of(true, false).map(f -> new DecisionPolicy(OnUnsatisfied.FALLBACK, f))).as(DecisionInput::new);
    }

    private static Arbitrary<RequestedIoMode> requested() {
        return Arbitraries.of(RequestedIoMode.class);
    }

    private static Arbitrary<DecisionPolicy> policies() {
        return Combinators.combine(Arbitraries.of(OnUnsatisfied.class), Arbitraries.of(true, false)).as(DecisionPolicy::new);
    }

    static Arbitrary<VolumeFacts> volumes() {
        Arbitrary<String> uuid = Arbitraries.strings().withCharRange('0', '9').withCharRange('a', 'f').ofLength(32);
        Arbitrary<String> storage = Arbitraries.of("LocalStorage", "NFS", "SharedMountPoint", "SharedBlock", "Ceph", "ZBS", "");
        Arbitrary<String> format = Arbitraries.of("qcow2", "raw").injectNull(0.05);
        Arbitrary<String> prealloc = Arbitraries.of("none", "metadata", "falloc", "full", "FULL").injectNull(0.15);
        Arbitrary<String> cache = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of("none", "directsync")),
                Tuple.of(2, Arbitraries.of("writethrough", "writeback", "unsafe", "default"))).injectNull(0.05);
        // sizes: unknown, equal (fully allocated raw), sparse, larger (qcow2 metadata), zero
        Arbitrary<Long> virtual = Arbitraries.longs().between(0, 1L << 42).injectNull(0.2)
                .edgeCases(c -> c.add(0L));
        Arbitrary<Tuple.Tuple2<Long, Long>> sizes = virtual.flatMap(v -> {
            if (v == null) return Arbitraries.longs().between(0, 1L << 42).injectNull(0.5).map(a -> Tuple.of(null, a));
            return Arbitraries.oneOf(
                    Arbitraries.just(Tuple.of(v, (Long) null)),
                    Arbitraries.just(Tuple.of(v, v)),
                    Arbitraries.longs().between(0, v).map(a -> Tuple.of(v, a)),
                    Arbitraries.longs().between(v, v + (1L << 30)).map(a -> Tuple.of(v, a)));
        });
        return Combinators.combine(uuid, storage, format, prealloc, sizes, cache)
                .as((u, s, f, p, sz, c) -> new VolumeFacts(u, s, f, p, sz.get1(), sz.get2(), c));
    }

    static Arbitrary<Version> versions(String... landmarks) {
        Arbitrary<Version> arbitrary = Combinators.combine(
                        Arbitraries.integers().between(0, 12), Arbitraries.integers().between(0, 30), Arbitraries.integers().between(0, 200))
                .as((a, b, c) -> new Version(new int[]{a, b, c}));
        Arbitrary<Version> known = Arbitraries.of(landmarks).map(Version::parse);
        return Arbitraries.frequencyOf(Tuple.of(3, known), Tuple.of(2, arbitrary)).injectNull(0.1);
    }

    static Arbitrary<HostFacts> hosts() {
        Arbitrary<HostFacts> h = Builders.withBuilder(() -> new Object[6])
                .use(Arbitraries.strings().alpha().ofLength(8)).in((a, v) -> { a[0] = v; return a; })
                .use(versions("4.19", "5.0", "5.1", "5.4.0-150-generic", "5.12.19", "5.13", "6.1.0", "6.6", "6.18.44-fc-v669"))
                .in((a, v) -> { a[1] = v; return a; })
                .use(Arbitraries.of(0, 1, 2).injectNull(0.3)).in((a, v) -> { a[2] = v; return a; })
                .use(versions("2.12", "4.2", "5.0", "6.2.0", "7.0.0", "7.1.0", "7.1.5", "7.2.0", "8.2.2"))
                .in((a, v) -> { a[3] = v; return a; })
                .use(Arbitraries.of(true, false).injectNull(0.15)).in((a, v) -> { a[4] = v; return a; })
                .use(versions("4.5.0", "6.2.0", "6.3.0", "8.0.0", "9.0.0", "10.0.0")).in((a, v) -> { a[5] = v; return a; })
                .build(a -> new HostFacts((String) a[0], (Version) a[1], (Integer) a[2], (Version) a[3], (Boolean) a[4], (Version) a[5]));
        // hosts where io_uring mostly works, with at most one fact taken from an arbitrary host
        Arbitrary<HostFacts> goodish = Combinators.combine(
                        Arbitraries.strings().alpha().ofLength(8),
                        Arbitraries.of("5.1", "5.4.0-150-generic", "5.13", "6.1.0", "6.18.44-fc-v669").map(Version::parse),
                        Arbitraries.of(0).injectNull(0.5),
                        Arbitraries.of("5.0", "7.1.0", "7.2.0", "8.2.2").map(Version::parse),
                        Arbitraries.of("6.3.0", "9.0.0").map(Version::parse),
                        Arbitraries.integers().between(-2, 4), h)
                .as((uuid, k, dis, q, l, perturb, any) -> new HostFacts(uuid,
                        perturb == 0 ? any.kernel() : k, perturb == 1 ? any.ioUringDisabled() : dis,
                        perturb == 2 ? any.qemu() : q, perturb == 3 ? any.qemuIoUring() : Boolean.TRUE,
                        perturb == 4 ? any.libvirt() : l));
        return Arbitraries.frequencyOf(Tuple.of(3, h), Tuple.of(4, goodish)).injectNull(0.12);
    }

    // ---- properties ----------------------------------------------------------------------------------------

    /** (a) a concrete effective mode that was not refused had all its own checks pass. */
    /** Metrics pre-register a series per check name (issue 29), so every check a decision holds must be one of them. */
    @Property(tries = 2000)
    void everyCheckIsOneTheDeciderNames(@ForAll("inputs") DecisionInput in) {
        assertThat(DECIDER.decide(in).checks()).extracting(Check::check).isSubsetOf(DECIDER.checkNames());
    }

    @Property(tries = 2000)
    void effectiveModesOwnChecksAllPassed(@ForAll("inputs") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        Statistics.label("effective").collect(d.refused() ? "refused" : d.effectiveWire());
        if (d.refused() || d.effectiveMode() == null) return;
        String mode = d.effectiveWire();
        assertThat(d.checks()).filteredOn(c -> c.mode().equals(mode)).allMatch(Check::passed);
        if (d.effectiveMode() != IoMode.THREADS) {
            assertThat(d.checks()).as("a non-threads mode was checked").anyMatch(c -> c.mode().equals(mode));
        }
    }

    /** (b) if the effective mode's checks did not all pass, the answer is threads, not-applicable, or a refusal naming a failed check. */
    @Property(tries = 2000)
    void otherwiseThreadsNotApplicableOrARefusalNamingAFailedCheck(@ForAll("inputs") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        boolean concreteAndChecked = !d.refused() && d.effectiveMode() != null && d.effectiveMode() != IoMode.THREADS
                                     && d.checks().stream().filter(c -> c.mode().equals(d.effectiveWire())).allMatch(Check::passed);
        if (concreteAndChecked) return;
        if (d.refused()) {
            assertThat(d.effectiveWire()).isNull();
            assertThat(d.reason()).contains("refused");
            Check named = d.checks().stream().filter(c -> !c.passed() && d.reason().contains("check " + c.check() + " failed"))
                    .findFirst().orElse(null);
            assertThat(named).as("refusal names a failed check from the list: %s", d.reason()).isNotNull();
            assertThat(named.mode()).isEqualTo(d.requested().wire());
        } else {
            assertThat(d.effectiveWire()).isIn("threads", IoModeDecision.NOT_APPLICABLE);
        }
    }

    /** (c) auto never picks a mode whose checks fail, picks the best passing one, and is never refused. */
    @Property(tries = 2000)
    void autoPicksTheBestModeWhoseChecksPass(@ForAll("autoInputs") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        assertThat(d.refused()).isFalse();
        assertThat(d.effectiveWire()).isNotNull();
        if (IoModeDecision.NOT_APPLICABLE.equals(d.effectiveWire())) {
            assertThat(Facts.RULES.kindOf(in.volume().storageType())).isEqualTo(StorageKind.NETWORK);
            return;
        }
        assertThat(d.checks()).filteredOn(c -> c.mode().equals(d.effectiveWire())).allMatch(Check::passed);
        // every better mode was evaluated and failed
        for (IoMode better : PREFERENCE.subList(0, PREFERENCE.indexOf(d.effectiveMode()))) {
            assertThat(d.firstFailure(better)).as("%s is better than %s: it must have failed", better, d.effectiveWire())
                    .isNotNull();
        }
    }

    /** (d) with fallback nothing is ever refused and there is always an effective answer. */
    @Property(tries = 2000)
    void fallbackNeverRefuses(@ForAll("fallbackInputs") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        assertThat(d.refused()).isFalse();
        assertThat(d.effectiveWire()).isNotNull().isIn("threads", "native", "io_uring", IoModeDecision.NOT_APPLICABLE);
    }

    /** (e) for a concrete request the effective mode is never better, in preference order, than the one requested. */
    @Property(tries = 2000)
    void neverBetterThanRequested(@ForAll("inputs") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        if (in.requested() == RequestedIoMode.AUTO || d.effectiveMode() == null) return;
        assertThat(PREFERENCE.indexOf(d.effectiveMode())).isGreaterThanOrEqualTo(PREFERENCE.indexOf(in.requested().mode()));
        // and checks of better modes were not even evaluated
        for (IoMode better : PREFERENCE.subList(0, PREFERENCE.indexOf(in.requested().mode()))) {
            assertThat(d.checks()).noneMatch(c -> c.mode().equals(better.wire()));
        }
    }

    /** (f) the same input gives an equal decision, with a fresh decider too: no hidden state. */
    @Property(tries = 1000)
    void deterministic(@ForAll("inputs") DecisionInput in) {
        IoModeDecision first = DECIDER.decide(in);
        DecisionInput copy = new DecisionInput(in.requested(), in.source(), in.volume(), in.host(), in.policy());
        assertThat(DECIDER.decide(copy)).isEqualTo(first);
        assertThat(new IoModeDecider(Facts.RULES).decide(in)).isEqualTo(first);
    }

    /** The reason is one sentence, echoes where the request came from, and a non-trivial outcome names a failed check. */
    @Property(tries = 2000)
    void reasonIsOneSentenceAndNamesAFailedCheckWhenTheRequestWasNotMet(@ForAll("inputs") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        assertThat(Facts.isOneSentence(d.reason())).as(d.reason()).isTrue();
        // a storage kind's default goes on to name the kind and the rules file
        assertThat(d.reason()).matches(Pattern.quote(in.requested().wire() + " requested (" + in.source().wire()) + "[):].*");
        assertThat(d.checks()).allSatisfy(c -> {
            assertThat(Facts.isOneSentence(c.message())).as(c.message()).isTrue();
            assertThat(c.check()).isNotBlank();
        });
        boolean unmet = d.refused() || (in.requested() != RequestedIoMode.AUTO && d.effectiveMode() != null
                                        && d.effectiveMode() != in.requested().mode());
        if (unmet) {
            Check failed = d.firstFailure(in.requested().mode());
            assertThat(failed).isNotNull();
            assertThat(d.reason()).contains("check " + failed.check()).contains(failed.message());
        }
    }

    /** What was asked is echoed unchanged, whatever the outcome. */
    @Property(tries = 1000)
    void echoesTheInput(@ForAll("inputs") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        assertThat(d.requested()).isEqualTo(in.requested());
        assertThat(d.source()).isEqualTo(in.source());
        assertThat(d.volumeUuid()).isEqualTo(in.volume().volumeUuid());
        assertThat(d.hostUuid()).isEqualTo(in.host() == null ? null : in.host().hostUuid());
        assertThat(d.refused()).isEqualTo(d.effectiveWire() == null);
        if (d.refused()) assertThat(in.policy().onUnsatisfied()).isEqualTo(OnUnsatisfied.FAIL);
    }

    /** Network storage is not-applicable whatever else is true; everything else never is. */
    @Property(tries = 1000)
    void notApplicableExactlyForNetworkStorage(@ForAll("inputs") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        boolean network = Facts.RULES.kindOf(in.volume().storageType()) == StorageKind.NETWORK;
        assertThat(IoModeDecision.NOT_APPLICABLE.equals(d.effectiveWire())).isEqualTo(network);
    }

    /** A mode's verdict does not depend on how it was reached: requested directly or reached by fallback or auto. */
    @Property(tries = 1000)
    void aModesVerdictIsTheSameHoweverItIsReached(@ForAll("inputs") DecisionInput in) {
        IoModeDecision d = DECIDER.decide(in);
        for (IoMode m : List.of(IoMode.NATIVE, IoMode.IO_URING)) {
            List<Check> here = d.checks().stream().filter(c -> c.mode().equals(m.wire())).toList();
            if (here.isEmpty()) continue;
            IoModeDecision direct = DECIDER.decide(new DecisionInput(RequestedIoMode.valueOf(m.name()), in.source(), in.volume(),
                    in.host(), new DecisionPolicy(OnUnsatisfied.FAIL, in.policy().allowFalloc())));
            assertThat(here).isEqualTo(direct.checks().stream().filter(c -> c.mode().equals(m.wire())).toList());
        }
    }
}
