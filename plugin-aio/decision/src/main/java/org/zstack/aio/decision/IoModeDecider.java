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
        for (int i = order.indexOf(asked) + 1; i < order.size(); i++) {
            IoMode next = order.get(i);
            if (checks.evaluate(next, in, out)) return next;
        }
        return IoMode.THREADS;
    }

    private IoModeDecision auto(DecisionInput in, String hostUuid, String origin, List<Check> out) {
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
