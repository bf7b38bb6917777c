package org.zstack.aio.plugin.bench;

import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.MeasureSettings;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What the benchmark of one host × storage runs: each mode the host allows ({@link DiskIoModes#hostCheck}: a mode
 * its kernel, QEMU or libvirt cannot run is left out, with the check's sentence) × each depth × read and write (reads
 * only on a fully written kind), and how long each run may take. Runs go workload by workload, every mode on one
 * workload before the next, so a budget that runs out leaves whole workloads compared rather than one mode measured
 * everywhere. Pure.
 */
public final class BenchPlan {

    private final ImageKind kind;
    private final List<BenchRun> runs;
    private final Map<IoMode, String> excluded;
    private final int budgetSeconds;

    private BenchPlan(ImageKind kind, List<BenchRun> runs, Map<IoMode, String> excluded, int budgetSeconds) {
        this.kind = kind;
        this.runs = Collections.unmodifiableList(runs);
        this.excluded = Collections.unmodifiableMap(excluded);
        this.budgetSeconds = budgetSeconds;
    }

    /**
     * @param host the host's facts (null or never probed: only threads, which needs no check, is run)
     * @throws IllegalArgumentException when the budget cannot hold one run
     */
    public static BenchPlan of(DiskIoModes modes, HostIoFacts host, ImageKind kind, MeasureSettings settings) {
        List<IoMode> allowed = new ArrayList<IoMode>();
        Map<IoMode, String> excluded = new EnumMap<IoMode, String>(IoMode.class);
        for (IoMode m : IoMode.values()) {
            CheckResult c = modes.hostCheck(m, host);
            if (c.passed()) {
                allowed.add(m);
            } else {
                excluded.put(m, m.wire() + " is not run: check " + c.firstFailure().check() + " failed: " + c.firstFailure().message());
            }
        }
        int count = settings.depths().size() * (kind.measuresReads() ? 2 : 1) * allowed.size();
        if (count == 0) throw new IllegalArgumentException("no run to make: the host allows no mode");
        // each run gets an equal share of the budget, less the second host-bench.sh may overrun its SECONDS by
        int seconds = Math.min(settings.runSecondsMax(), settings.budgetSeconds() / count - 1);
        if (seconds < 1) {
            throw new IllegalArgumentException("a budget of " + settings.budgetSeconds() + " s cannot hold " + count
                                               + " runs of at least 2 s each; raise bench.budgetSeconds");
        }
        List<BenchRun> runs = new ArrayList<BenchRun>(count);
        for (boolean read : new boolean[]{false, true}) {
            if (read && !kind.measuresReads()) continue;
            for (int depth : settings.depths()) {
                for (IoMode m : allowed) runs.add(new BenchRun(m, depth, read, seconds));
            }
        }
        return new BenchPlan(kind, runs, excluded, settings.budgetSeconds());
    }

    public ImageKind kind() { return kind; }

    /** In the order they run. */
    public List<BenchRun> runs() { return runs; }

    /** The modes the host does not allow, each with why (the host check's sentence). */
    public Map<IoMode, String> excluded() { return excluded; }

    public int budgetSeconds() { return budgetSeconds; }
}
