package org.zstack.aio.decision;

import java.util.Collections;
import java.util.List;

/** Whether one mode passes for a volume on a host (or for a host alone), with every check evaluated. */
public final class CheckResult {

    private final IoMode mode;
    private final boolean passed;
    private final List<Check> checks;

    CheckResult(IoMode mode, boolean passed, List<Check> checks) {
        this.mode = mode;
        this.passed = passed;
        this.checks = Collections.unmodifiableList(checks);
    }

    public IoMode mode() { return mode; }

    public boolean passed() { return passed; }

    public List<Check> checks() { return checks; }

    /** The first failed check, or null when all passed. */
    public Check firstFailure() {
        for (Check c : checks) if (!c.passed()) return c;
        return null;
    }

    @Override
    public String toString() { return "CheckResult[mode=" + mode + ", passed=" + passed + ", checks=" + checks + "]"; }
}
