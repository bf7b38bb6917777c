package org.zstack.aio.plugin.bench;

/** How a benchmark of one host × storage ended. */
public enum BenchOutcome {
    /** every planned run was made (a mode that failed on this storage is in the lines, with why) */
    COMPLETE,
    /** the budget ran out before every run was made: the runs made stand */
    BUDGET_SPENT,
    /** an admin cancelled it between two runs: the runs made stand */
    CANCELLED,
    /** the host refused it before writing anything (no room, bad arguments) */
    REFUSED,
    /** the host could not be asked, or answered something that is no benchmark line */
    FAILED;

    /** Whether what was measured before the end is complete enough to be weighed (every outcome but the last two). */
    public boolean keepsFigures() { return this != REFUSED && this != FAILED; }
}
