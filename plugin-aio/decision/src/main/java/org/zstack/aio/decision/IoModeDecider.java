package org.zstack.aio.decision;

import java.util.ArrayList;
import java.util.List;

/**
 * The io-mode decision (CONTRACT §3) as a pure function: facts in, decision out. No framework, no database,
 * no I/O, no state beyond the immutable rules, so it is safe to share and call from any thread.
 */
public final class IoModeDecider {

    private final IoModeRules rules;
    private final ModeChecks checks;

    public IoModeDecider(IoModeRules rules) {
        this.rules = rules;
        this.checks = new ModeChecks(rules);
    }

    public IoModeRules rules() {
        return rules;
    }

    public IoModeDecision decide(DecisionInput in) {
        VolumeFacts v = in.volume();
        String hostUuid = in.host() == null ? null : in.host().hostUuid();
        String requested = in.requested().wire();
        String source = in.source().wire();
        String origin = requested + " requested (" + source + ")";

        if (rules.kindOf(v.storageType()) == StorageKind.NETWORK) {
            String msg = v.storageType() + " volumes are opened by QEMU's network block driver, which takes no io attribute.";
            return new IoModeDecision(v.volumeUuid(), hostUuid, requested, source, IoModeDecision.NOT_APPLICABLE, false,
                    List.of(new Check(requested, "network-storage", true, msg)),
                    origin + " does not apply: " + msg);
        }

        List<Check> out = new ArrayList<>(8);
        RequestedIoMode req = in.requested();
        if (req == RequestedIoMode.AUTO) {
            return auto(in, hostUuid, origin, out);
        }
        IoMode asked = req.mode();
        if (checks.evaluate(asked, in, out)) {
            return decision(in, hostUuid, asked.wire(), false, out, asked == IoMode.THREADS
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
        return decision(in, hostUuid, chosen.wire(), false, out,
                origin + " fell back to " + chosen.wire() + " because check " + failed.check() + " failed: "
                + failed.message());
    }

    /** The first mode after {@code asked} in the preference order whose checks pass; threads at worst. */
    private IoMode fallback(IoMode asked, DecisionInput in, List<Check> out) {
        List<IoMode> order = rules.preference();
        // a mode missing from the chain falls straight to threads: a fallback never climbs above what was asked
        int from = order.indexOf(asked);
        for (int i = from < 0 ? order.size() - 1 : from + 1; i < order.size(); i++) {
            IoMode next = order.get(i);
            if (checks.evaluate(next, in, out)) return next;
        }
        return IoMode.THREADS;
    }

    private IoModeDecision auto(DecisionInput in, String hostUuid, String origin, List<Check> out) {
        if (in.performance() != null && !in.performance().scores().isEmpty()) {
            IoModeDecision measured = autoMeasured(in, hostUuid, origin, out);
            if (measured != null) return measured;
            out.clear();
        }
        IoMode chosen = IoMode.THREADS;
        Check firstSkipped = null;
        for (IoMode m : rules.preference()) {
            int before = out.size();
            if (checks.evaluate(m, in, out)) {
                chosen = m;
                break;
            }
            if (firstSkipped == null) firstSkipped = firstFailure(out.subList(before, out.size()), m);
        }
        String why = firstSkipped == null
                ? origin + " chose " + chosen.wire() + ", the best mode, whose checks all passed."
                : origin + " chose " + chosen.wire() + " because " + firstSkipped.mode() + " is ruled out by check "
                  + firstSkipped.check() + ": " + firstSkipped.message();
        return decision(in, hostUuid, chosen.wire(), false, out, why);
    }

    /**
     * auto with measurements: every mode's checks are evaluated; among the passing modes that were measured, the
     * fastest wins, unless a mode earlier in the preference order is within {@code measuredTieMargin} of it.
     * Null when no passing mode was measured (the static order then decides).
     */
    private IoModeDecision autoMeasured(DecisionInput in, String hostUuid, String origin, List<Check> out) {
        ModePerformance perf = in.performance();
        List<IoMode> measuredPassing = new ArrayList<>(3);
        Check firstSkipped = null;
        for (IoMode m : rules.preference()) {
            int before = out.size();
            if (checks.evaluate(m, in, out)) {
                if (perf.score(m) != null) measuredPassing.add(m);
            } else if (firstSkipped == null) {
                firstSkipped = firstFailure(out.subList(before, out.size()), m);
            }
        }
        IoMode chosen = pickMeasured(measuredPassing, perf, rules.measuredTieMargin());
        if (chosen == null) return null;
        IoMode fastest = fastest(measuredPassing, perf);
        Double ratio = perf.ratioToThreads(chosen);
        String times = ratio == null ? "" : ", " + String.format(java.util.Locale.ROOT, "%.2f", ratio) + "x threads";
        String why = chosen == fastest
                ? origin + " chose " + chosen.wire() + ": fastest measured on this storage" + times
                : origin + " chose " + chosen.wire() + ": within " + Math.round(rules.measuredTieMargin() * 100)
                  + "% of the fastest measured on this storage (" + fastest.wire() + "), so the preference order keeps it"
                  + times;
        why += " (" + perf.metric() + ")";
        if (firstSkipped != null) {
            why += "; " + firstSkipped.mode() + " is ruled out by check " + firstSkipped.check() + ": " + firstSkipped.message();
        } else {
            why += ".";
        }
        return decision(in, hostUuid, chosen.wire(), false, out, why);
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
        for (Check c : list) if (!c.passed() && c.mode().equals(mode.wire())) return c;
        throw new IllegalStateException("no failed check for " + mode);
    }

    private static IoModeDecision decision(DecisionInput in, String hostUuid, String effective, boolean refused,
                                           List<Check> out, String reason) {
        return new IoModeDecision(in.volume().volumeUuid(), hostUuid, in.requested().wire(), in.source().wire(),
                effective, refused, out, reason);
    }
}
