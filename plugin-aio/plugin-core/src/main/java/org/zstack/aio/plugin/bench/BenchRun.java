package org.zstack.aio.plugin.bench;

import org.zstack.aio.decision.IoMode;

/**
 * One run of the storage benchmark: one io mode at one queue depth, 4 KiB random reads or writes, given at most
 * {@code seconds} (host-bench.sh ends within seconds + 1).
 */
public final class BenchRun {

    private final IoMode mode;
    private final int depth;
    private final boolean read;
    private final int seconds;

    public BenchRun(IoMode mode, int depth, boolean read, int seconds) {
        if (mode == null) throw new IllegalArgumentException("a run needs a mode");
        if (depth < 1) throw new IllegalArgumentException("depth must be >= 1: " + depth);
        this.mode = mode;
        this.depth = depth;
        this.read = read;
        this.seconds = seconds;
    }

    public IoMode mode() { return mode; }

    public int depth() { return depth; }

    public boolean read() { return read; }

    /** read or write, as the script's RW argument and line say. */
    public String rw() { return read ? "read" : "write"; }

    public int seconds() { return seconds; }

    /** The workload's name, as the standalone's benchmark names its cells: {@code randwrite-4k-qd32}. */
    public String workload() { return workloadName(read, depth); }

    static String workloadName(boolean read, int depth) {
        return (read ? "randread" : "randwrite") + "-4k-qd" + depth;
    }

    /** The same workload and mode, whatever the seconds: what a line answers. */
    public boolean sameAs(IoMode m, int d, boolean r) {
        return mode == m && depth == d && read == r;
    }

    @Override
    public String toString() { return mode.wire() + " " + workload(); }
}
