package org.zstack.aio.test.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Waits, before a timed round, until the machine's CPUs are idle (Linux's /proc/stat), so that a round does not run
 * while the previous round's after-work is still going: the other server's tracker syncing its host after the stops,
 * MariaDB writing them out. Without it, whichever configuration ran second in a pair was 3-8 % slower (half the gap
 * between the paired medians of each order, six runs), and the rounds' medians jumped between the orders from run to run.
 */
final class MachineIdle {

    /** The busy share of all CPUs over a window under which the machine counts as idle. */
    private static final double IDLE_BELOW = 0.05;
    private static final long WINDOW_MS = 100;
    private static final long MAX_WAIT_MS = 5_000;

    private MachineIdle() {
    }

    /** Waits at most 5 s: a machine that never quiets down is measured anyway. */
    static void await() throws InterruptedException {
        long t0 = System.nanoTime();
        long[] a = ticks();
        while ((System.nanoTime() - t0) / 1_000_000 < MAX_WAIT_MS) {
            Thread.sleep(WINDOW_MS);
            long[] b = ticks();
            long busy = b[0] - a[0];
            long all = busy + b[1] - a[1];
            a = b;
            if (all > 0 && (double) busy / all < IDLE_BELOW) return;
        }
    }

    /** {busy, idle} ticks of all CPUs so far: user nice system idle iowait irq softirq steal. */
    private static long[] ticks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            long busy = 0;
            for (int i = 1; i <= 8; i++) busy += Long.parseLong(f[i]);
            return new long[]{busy - idle, idle};
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/stat", e);
        }
    }
}
