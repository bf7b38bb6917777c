package org.zstack.aio.plugin.bench;

import org.zstack.aio.decision.IoMode;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The benchmark of one host × storage as a job that steps from run to run: the platform asks {@link #next()} for a
 * run, sends it to the host as one short call (host-bench.sh), hands the answer to {@link #record}, and asks again.
 * Between two runs it may be cancelled, and it starts no run that could end past the plan's budget, so the platform
 * never holds a thread longer than one run. Platform-free and thread-safe (a cancel comes from another thread).
 * <ul>
 *   <li>a run the host refuses (no room on the storage, bad arguments) ends the job: nothing was written;</li>
 *   <li>a mode that fails on this storage (e.g. native where the filesystem refuses O_DIRECT) is recorded with the
 *   host's sentence, and its other runs are not made;</li>
 *   <li>an answer with no benchmark line, or a host that cannot be asked, fails the job: the next run would fare
 *   the same.</li>
 * </ul>
 */
public final class BenchJob {

    /** Monotonic nanoseconds (System::nanoTime in production, a hand-moved clock in tests). */
    public interface Clock {
        long nanos();
    }

    private final BenchPlan plan;
    private final Clock clock;
    private final long startNanos;
    private final List<BenchLine> lines = new ArrayList<BenchLine>();
    private final Set<IoMode> failedModes = EnumSet.noneOf(IoMode.class);
    private int index;
    private int resolved;
    private BenchRun inFlight;
    private BenchOutcome outcome;
    private String note;

    public BenchJob(BenchPlan plan, Clock clock) {
        this.plan = plan;
        this.clock = clock;
        this.startNanos = clock.nanos();
        for (Map.Entry<IoMode, String> e : plan.excluded().entrySet()) lines.add(BenchLine.skipped(e.getKey(), e.getValue()));
    }

    /**
     * The next run to send, or null when the job has ended (every run made, the budget spent, cancelled, refused or
     * failed: {@link #outcome()} says which).
     *
     * @throws IllegalStateException while a run is in flight (its answer not recorded)
     */
    public synchronized BenchRun next() {
        if (outcome != null) return null;
        if (inFlight != null) throw new IllegalStateException("run " + inFlight + " is in flight: record its answer first");
        List<BenchRun> runs = plan.runs();
        while (index < runs.size() && failedModes.contains(runs.get(index).mode())) {
            index++;
            resolved++;
        }
        if (index == runs.size()) {
            end(BenchOutcome.COMPLETE, failedModes.isEmpty() ? null
                    : "every run was made; " + failedModes.size() + " mode(s) failed on this storage and were not run further");
            return null;
        }
        BenchRun run = runs.get(index);
        double elapsed = (clock.nanos() - startNanos) / 1e9;
        // a run may take its seconds + 1 (host-bench.sh reads the date in whole seconds)
        if (elapsed + run.seconds() + 1 > plan.budgetSeconds()) {
            end(BenchOutcome.BUDGET_SPENT, "the budget of " + plan.budgetSeconds() + " s ran out after " + resolved + " of "
                                            + runs.size() + " runs");
            return null;
        }
        index++;
        inFlight = run;
        return run;
    }

    /**
     * What the host answered to {@code run}: its standard output (where the one bench line is), its standard error
     * and exit code (for the sentence when there is no line).
     */
    public synchronized void record(BenchRun run, String stdout, String stderr, int exitCode) {
        if (run != inFlight) throw new IllegalStateException("run " + run + " is not the one in flight (" + inFlight + ")");
        inFlight = null;
        resolved++;
        BenchLine line = BenchLine.parse(stdout);
        if (line == null) {
            fail(run, "the host printed no bench line for " + run + " (exit code " + exitCode + "): "
                      + firstLine(stderr != null && !stderr.trim().isEmpty() ? stderr : stdout));
            return;
        }
        if (line.kind() == BenchLine.Kind.REFUSED) {
            lines.add(line);
            end(BenchOutcome.REFUSED, line.sentence().isEmpty() ? "the host refused the benchmark (" + line.code() + ")" : line.sentence());
            return;
        }
        if (!line.answers(run)) {
            String why = line.kind() == BenchLine.Kind.FAILED && line.mode() == null ? line.sentence()
                    : "the host answered '" + line.text() + "' to run " + run;
            fail(run, why);
            return;
        }
        lines.add(line);
        if (line.kind() == BenchLine.Kind.FAILED) failedModes.add(run.mode());
    }

    /** The host could not be asked for {@code run} (the channel failed): the job fails with why. */
    public synchronized void unreachable(BenchRun run, String why) {
        if (run != inFlight) throw new IllegalStateException("run " + run + " is not the one in flight (" + inFlight + ")");
        inFlight = null;
        resolved++;
        fail(run, "the host could not be asked for run " + run + ": " + why);
    }

    /**
     * Stops the job before its next run (the run in flight, at most one short call, still ends and is recorded).
     *
     * @return false when it had already ended
     */
    public synchronized boolean cancel(String why) {
        if (outcome != null) return false;
        end(BenchOutcome.CANCELLED, "cancelled after " + resolved + " of " + plan.runs().size() + " runs"
                                     + (why == null || why.trim().isEmpty() ? "" : ": " + why.trim()));
        return true;
    }

    /** null while it runs. */
    public synchronized BenchOutcome outcome() { return outcome; }

    public synchronized String note() { return note; }

    /** Runs resolved (made, or not made because their mode failed) of {@link #total()}: the progress. */
    public synchronized int done() { return resolved; }

    public int total() { return plan.runs().size(); }

    public BenchPlan plan() { return plan; }

    /** Whether the run in flight has been answered (a cancelled job still waits for it). */
    public synchronized boolean idle() { return inFlight == null; }

    /**
     * What to store: the lines so far, how it ended, and when it was taken.
     *
     * @throws IllegalStateException while it runs
     */
    public synchronized StorageBenchmark result(String hostUuid, String primaryStorageUuid, String takenAt) {
        if (outcome == null || inFlight != null) throw new IllegalStateException("the benchmark has not ended");
        return new StorageBenchmark(hostUuid, primaryStorageUuid, plan.kind(), takenAt, outcome, note, lines);
    }

    private void fail(BenchRun run, String sentence) {
        lines.add(BenchLine.failed(run, sentence));
        end(BenchOutcome.FAILED, sentence);
    }

    /** The first end stands: a cancelled job's last answer adds its line but does not make it refused or failed. */
    private void end(BenchOutcome o, String why) {
        if (outcome != null) return;
        outcome = o;
        note = why;
    }

    private static String firstLine(String s) {
        if (s == null || s.trim().isEmpty()) return "(nothing)";
        String t = s.trim();
        int nl = t.indexOf('\n');
        String first = nl < 0 ? t : t.substring(0, nl);
        return first.length() > 300 ? first.substring(0, 300) + "..." : first;
    }
}
