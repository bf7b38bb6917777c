package org.zstack.aio.decision;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The modes a disk may try at start, worked out when first asked: a VM start needs them, a preview does not, so
 * deciding stays as cheap as before. Safe to share: computing twice gives the same list.
 */
final class CandidateChain {

    static final CandidateChain NONE = new CandidateChain(null, null, null, null);

    private final ModeChecks checks;
    private final IoModeRules rules;
    private final DecisionInput in;
    private final IoMode effective;
    private volatile List<IoMode> modes;

    CandidateChain(ModeChecks checks, IoModeRules rules, DecisionInput in, IoMode effective) {
        this.checks = checks;
        this.rules = rules;
        this.in = in;
        this.effective = effective;
        if (effective == null) modes = Collections.emptyList();
    }

    List<IoMode> modes() {
        List<IoMode> m = modes;
        if (m == null) modes = m = compute();
        return m;
    }

    private List<IoMode> compute() {
        List<IoMode> out = new ArrayList<>(3);
        out.add(effective);
        if (in.policy().onUnsatisfied() != OnUnsatisfied.FAIL) {
            List<Check> scratch = new ArrayList<>(8);
            for (IoMode next : rules.after(effective)) {
                if (next == IoMode.THREADS || checks.evaluate(next, in.volume(), in.host(), in.policy(), scratch)) {
                    out.add(next);
                }
            }
        }
        return Collections.unmodifiableList(out);
    }
}
