package org.zstack.aio.decision;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The io-mode decision (docs/contract.md, "The decision") as a pure function: facts in, decision out. No framework,
 * no database, no I/O, no state beyond the immutable rules, so it is safe to share and call from any thread.
 * It is the one owner of the idea: whether a mode passes ({@link #check}), the fallback and candidate chain, and
 * the decision itself; callers ask it rather than walk the preference order themselves.
 */
public final class IoModeDecider {

    static final String KNOWN_BAD_PREFIX = "known-bad:";
    static final String NETWORK_STORAGE = "network-storage";

    private final IoModeRules rules;
    private final ModeChecks checks;

    public IoModeDecider(IoModeRules rules) {
        this.rules = rules;
        this.checks = new ModeChecks(rules);
    }

    public IoModeRules rules() {
        return rules;
    }

    /**
     * Every check name a decision of this decider can hold: the checks of each mode, one per known-bad rule, the
     * network-storage note and a refusal at start ({@code accepted-at-start}).
     */
    public List<String> checkNames() {
        List<String> names = new ArrayList<>(ModeChecks.NAMES);
        for (KnownBadRule r : rules.bad) names.add(KNOWN_BAD_PREFIX + r.id());
        names.add(NETWORK_STORAGE);
        names.add(IoModeDecision.ACCEPTED_AT_START);
        return names;
    }

    /**
     * Whether {@code mode} passes for {@code volume} on {@code host} (null: host unknown), with every check it
     * evaluated. Network storage takes no io attribute, so every mode passes there (nothing to refuse).
     */
    public CheckResult check(IoMode mode, VolumeFacts volume, HostFacts host, DecisionPolicy policy) {
        List<Check> out = new ArrayList<>(6);
        if (rules.kindOf(volume.storageType()) == StorageKind.NETWORK) {
            out.add(networkCheck(mode.wire(), volume));
            return new CheckResult(mode, true, out);
        }
        return new CheckResult(mode, checks.evaluate(mode, volume, host, policy, out), out);
    }

    /** {@link #check(IoMode, VolumeFacts, HostFacts, DecisionPolicy)} under the default policy (falloc is sparse). */
    public CheckResult check(IoMode mode, VolumeFacts volume, HostFacts host) {
        return check(mode, volume, host, DecisionPolicy.DEFAULT);
    }

    /**
     * The checks of {@code mode} that depend on the host alone (for io_uring: kernel, sysctl, QEMU, libvirt and the
     * known-bad rules without a storage condition), for showing whether a host can run the mode at all.
     */
    public CheckResult checkHost(IoMode mode, HostFacts host) {
        List<Check> out = new ArrayList<>(6);
        return new CheckResult(mode, checks.evaluateHost(mode, host, out), out);
    }

    private static Check networkCheck(String mode, VolumeFacts v) {
        return new Check(mode, NETWORK_STORAGE, true, v.storageType()
                + " volumes are opened by QEMU's network block driver, which takes no io attribute.");
    }

    public IoModeDecision decide(DecisionInput in) {
        VolumeFacts v = in.volume();
        String hostUuid = in.host() == null ? null : in.host().hostUuid();
        String origin = origin(in);

        if (rules.kindOf(v.storageType()) == StorageKind.NETWORK) {
            Check c = networkCheck(in.requested().wire(), v);
            return IoModeDecision.copying(v.volumeUuid(), hostUuid, in.requested(), in.source(), null, false, false,
                    Collections.singletonList(c), origin + " does not apply: " + c.message());
        }

        List<Check> out = new ArrayList<>(8);
        RequestedIoMode req = in.requested();
        if (req == RequestedIoMode.AUTO) {
            return auto(in, hostUuid, origin, out);
        }
        IoMode asked = req.mode();
        if (checks.evaluate(asked, v, in.host(), in.policy(), out)) {
            return decision(in, hostUuid, asked, false, out, asked == IoMode.THREADS
                    ? origin + ": threads needs no check and works everywhere."
                    : origin + " and all its checks passed.");
        }
        Check failed = firstFailure(out, asked);
        if (in.policy().onUnsatisfied() == OnUnsatisfied.FAIL) {
            return decision(in, hostUuid, null, true, out,
                    origin + " is refused because onUnsatisfied is fail and check " + failed.check() + " failed: "
                    + failed.message());
        }
        IoMode chosen = fallback(asked, in, out);
        return decision(in, hostUuid, chosen, false, out,
                origin + " fell back to " + chosen.wire() + " because check " + failed.check() + " failed: "
                + failed.message());
    }

    /**
     * What was asked and where it came from, the opening of every reason: "native requested (PrimaryStorageVO)"; a
     * storage kind's default names the kind and the rules file, since no config level says it (only when these rules
     * do give the kind that default: a reason never claims what the rules do not say).
     */
    private String origin(DecisionInput in) {
        String asked = in.requested().wire() + " requested (" + in.source().wire();
        String type = in.volume().storageType();
        StorageKind kind = rules.kindOf(type);
        if (in.source() != ConfigSource.STORAGE_KIND_DEFAULT || rules.kindDefault(kind) != in.requested()) return asked + ")";
        return asked + ": " + type + " is " + kind.name().toLowerCase(Locale.ROOT) + " storage, whose default is "
               + in.requested().wire() + " in conf/aio/io-mode-rules.yaml, and no admin set kvm/vm.ioMode)";
    }

    /** The first mode after {@code asked} in the preference order whose checks pass; threads at worst. */
    private IoMode fallback(IoMode asked, DecisionInput in, List<Check> out) {
        // a mode missing from the chain falls straight to threads: a fallback never climbs above what was asked
        IoMode[] order = rules.order;
        for (int i = rules.stepDownFrom(asked); i < order.length; i++) {
            if (checks.evaluate(order[i], in.volume(), in.host(), in.policy(), out)) return order[i];
        }
        return IoMode.THREADS;
    }

    /** Why auto walked the preference order: the reason says what it had to weigh instead. */
    static final String NO_BENCHMARK = "no benchmark figures of this storage for the volume's image kind";
    static final String NO_PASSING_FIGURE = "the benchmark has no figure for a mode whose checks pass";

    private IoModeDecision auto(DecisionInput in, String hostUuid, String origin, List<Check> out) {
        String unweighed = NO_BENCHMARK;
        if (in.performance() != null && !in.performance().scores().isEmpty()) {
            IoModeDecision measured = autoMeasured(in, hostUuid, origin, out);
            if (measured != null) return measured;
            out.clear();
            unweighed = NO_PASSING_FIGURE;
        }
        IoMode chosen = IoMode.THREADS;
        Check firstSkipped = null;
        IoMode[] order = rules.order;
        for (int i = 0; i < order.length; i++) {
            IoMode m = order[i];
            int before = out.size();
            if (checks.evaluate(m, in.volume(), in.host(), in.policy(), out)) {
                chosen = m;
                break;
            }
            if (firstSkipped == null) firstSkipped = firstFailure(out.subList(before, out.size()), m);
        }
        String why = firstSkipped == null
                ? origin + " chose " + chosen.wire() + ", the best mode in the preference order, whose checks all passed ("
                  + unweighed + ")."
                : origin + " chose " + chosen.wire() + " by the preference order (" + unweighed + ") because "
                  + firstSkipped.mode() + " is ruled out by check " + firstSkipped.check() + ": " + firstSkipped.message();
        return decision(in, hostUuid, chosen, false, out, why);
    }

    /**
     * auto with measurements: every mode's checks are evaluated; among the passing modes that were measured, the
     * fastest wins, unless a mode earlier in the preference order is within {@code measuredTieMargin} of it. "Fastest"
     * is for the disk's observed workload when there is one and the benchmark has its cells ({@link WorkloadMatch}),
     * else the benchmark's aggregate. Null when no passing mode was measured (the static order then decides).
     */
    private IoModeDecision autoMeasured(DecisionInput in, String hostUuid, String origin, List<Check> out) {
        List<IoMode> passing = new ArrayList<>(3);
        Check firstSkipped = null;
        IoMode[] order = rules.order;
        for (int i = 0; i < order.length; i++) {
            IoMode m = order[i];
            int before = out.size();
            if (checks.evaluate(m, in.volume(), in.host(), in.policy(), out)) {
                passing.add(m);
            } else if (firstSkipped == null) {
                firstSkipped = firstFailure(out.subList(before, out.size()), m);
            }
        }
        String skipped = firstSkipped == null ? "."
                : "; " + firstSkipped.mode() + " is ruled out by check " + firstSkipped.check() + ": " + firstSkipped.message();
        ModePerformance perf = in.performance();
        WorkloadProfile w = in.workload();
        WorkloadMatch match = rules.workloadMatch();
        if (w != null && !match.idle(w) && !perf.cells().isEmpty()) {
            ModePerformance expected = new ModePerformance(match.expectedRatios(perf.cells(), w), perf.metric(),
                    perf.takenAt());
            List<IoMode> candidates = measured(passing, expected);
            IoMode chosen = pickMeasured(candidates, expected, rules.measuredTieMargin());
            if (chosen != null) {
                String why = origin + " chose " + chosen.wire() + ": best for this disk's observed workload ("
                             + w.describe() + ") on this storage, " + times(expected.score(chosen)) + " threads (expected "
                             + figures(candidates, expected) + ", weighted from " + perf.metric() + ")" + skipped;
                return IoModeDecision.owning(in, hostUuid, chosen, false, out, why, checks, w);
            }
        }
        List<IoMode> measuredPassing = measured(passing, perf);
        IoMode chosen = pickMeasured(measuredPassing, perf, rules.measuredTieMargin());
        if (chosen == null) return null;
        IoMode fastest = fastest(measuredPassing, perf);
        Double ratio = perf.ratioToThreads(chosen);
        String timesThreads = ratio == null ? "" : ", " + times(ratio) + " threads";
        String why = chosen == fastest
                ? origin + " chose " + chosen.wire() + ": fastest measured on this storage" + timesThreads
                : origin + " chose " + chosen.wire() + ": within " + Math.round(rules.measuredTieMargin() * 100)
                  + "% of the fastest measured on this storage (" + fastest.wire() + "), so the preference order keeps it"
                  + timesThreads;
        why += " (measured " + figures(measuredPassing, perf) + ", " + perf.metric() + ")" + skipped;
        return decision(in, hostUuid, chosen, false, out, why);
    }

    private static List<IoMode> measured(List<IoMode> modes, ModePerformance perf) {
        List<IoMode> out = new ArrayList<>(modes.size());
        for (IoMode m : modes) if (perf.score(m) != null) out.add(m);
        return out;
    }

    /**
     * The figures that decided, for the reason: each candidate's ratio to threads, best first ("native 2.19x, io_uring
     * 1.50x, threads 1.00x"); a benchmark without threads gives its own scores instead.
     */
    private static String figures(List<IoMode> candidates, ModePerformance perf) {
        List<IoMode> byScore = new ArrayList<>(candidates);
        byScore.sort((a, b) -> Double.compare(perf.score(b), perf.score(a)));
        StringBuilder out = new StringBuilder();
        for (IoMode m : byScore) {
            Double ratio = perf.ratioToThreads(m);
            out.append(out.length() == 0 ? "" : ", ").append(m.wire()).append(' ')
                    .append(ratio != null ? times(ratio) : String.format(Locale.ROOT, "%.4g", perf.score(m)));
        }
        return out.toString();
    }

    private static String times(double ratio) {
        return String.format(Locale.ROOT, "%.2f", ratio) + "x";
    }

    /**
     * The measured pick among {@code candidates} (modes whose checks pass, in preference order, each with a
     * score): the first whose score is at least {@code (1 - margin)} × the best score; null when none.
     */
    public static IoMode pickMeasured(List<IoMode> candidates, ModePerformance perf, double margin) {
        IoMode best = fastest(candidates, perf);
        if (best == null) return null;
        double floor = perf.score(best) * (1 - margin);
        for (IoMode m : candidates) if (perf.score(m) >= floor) return m;
        return best;
    }

    private static IoMode fastest(List<IoMode> candidates, ModePerformance perf) {
        IoMode best = null;
        for (IoMode m : candidates) {
            Double s = perf.score(m);
            if (s != null && (best == null || s > perf.score(best))) best = m;
        }
        return best;
    }

    private static Check firstFailure(List<Check> list, IoMode mode) {
        for (Check c : list) if (!c.passed() && c.isOf(mode)) return c;
        throw new IllegalStateException("no failed check for " + mode);
    }

    private IoModeDecision decision(DecisionInput in, String hostUuid, IoMode effective, boolean refused,
                                    List<Check> out, String reason) {
        return IoModeDecision.owning(in, hostUuid, effective, refused, out, reason, checks);
    }
}
