package org.zstack.aio.test.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * CPU time of another process's threads by group, from Linux's /proc/PID/task/TID/stat: a server in a JVM of its own
 * can then say, as {@link ThreadCpu} does in this JVM, whether its extra CPU went to its request threads, the JIT's
 * compiler threads or the collector's threads. A group is the kernel's thread name (the JVM sets it, cut to 15
 * characters) with its numbers taken out. Resolution: the kernel's clock tick (10 ms), summed over many starts.
 */
final class ProcThreadCpu {

    /** USER_HZ: what /proc counts CPU time in, 100 on every Linux ABI the JVM runs on. */
    private static final long NANOS_PER_TICK = 10_000_000L;

    private ProcThreadCpu() {
    }

    /** Each live thread of {@code pid}: id → {group, CPU nanoseconds so far}. */
    static Map<String, Object[]> snapshot(long pid) {
        Map<String, Object[]> out = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            tasks.forEach(t -> {
                try {
                    String stat = Files.readString(t.resolve("stat"));
                    // "tid (comm) state ppid ...": comm may hold spaces and parentheses, so it ends at the last ')'
                    int open = stat.indexOf('(');
                    int close = stat.lastIndexOf(')');
                    String[] rest = stat.substring(close + 2).split(" ");
                    long ticks = Long.parseLong(rest[11]) + Long.parseLong(rest[12]); // utime, stime (fields 14, 15)
                    out.put(t.getFileName().toString(), new Object[]{stat.substring(open + 1, close).replaceAll("\\d+", "#"),
                            ticks * NANOS_PER_TICK});
                } catch (IOException | RuntimeException gone) {
                    // the thread ended between the listing and the read: its time is no longer anyone's
                }
            });
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the threads of process " + pid, e);
        }
        return out;
    }

    /** Adds what each group used between two snapshots to {@code into} (nanoseconds); threads started since count whole. */
    static void addDelta(Map<String, Object[]> before, Map<String, Object[]> after, Map<String, Long> into) {
        after.forEach((tid, now) -> {
            Object[] was = before.get(tid);
            long d = (long) now[1] - (was == null ? 0L : (long) was[1]);
            if (d > 0) into.merge((String) now[0], d, Long::sum);
        });
    }
}
