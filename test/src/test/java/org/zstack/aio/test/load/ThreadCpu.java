package org.zstack.aio.test.load;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of this JVM's threads by group (a thread's name with its numbers taken out, a server's request threads
 * named after their port), so an A/B load can say where a configuration's extra CPU goes: its request threads, its
 * background threads, or what neither thread accounts for (garbage collection, the JIT's runtime, the JVM itself).
 */
final class ThreadCpu {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    static final String UNACCOUNTED = "(not a Java thread: GC, JIT, JVM)";
    static final String GC_TIME = "[collectors' reported time, wall]";
    static final String JIT_TIME = "[JIT compile time, wall]";
    static final String GC_COUNT = "[collections (count, not ms) per start]";

    private final Map<Integer, String> portNames;

    /** @param portNames a server's port → the name its request threads are grouped under */
    ThreadCpu(Map<Integer, String> portNames) {
        this.portNames = portNames;
    }

    /** Nanoseconds of CPU per thread id, and the process's total under id -1. */
    Map<Long, Long> snapshot() {
        Map<Long, Long> out = new HashMap<>();
        for (long id : THREADS.getAllThreadIds()) {
            long t = THREADS.getThreadCpuTime(id);
            if (t >= 0) out.put(id, t);
        }
        out.put(-1L, OS.getProcessCpuTime());
        long gcMillis = 0;
        long gcCount = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcMillis += Math.max(0, gc.getCollectionTime());
            gcCount += Math.max(0, gc.getCollectionCount());
        }
        out.put(-2L, gcMillis * 1_000_000);
        out.put(-3L, ManagementFactory.getCompilationMXBean().getTotalCompilationTime() * 1_000_000);
        out.put(-4L, gcCount * 1_000_000);
        return out;
    }

    /** Bytes allocated per thread id (less noisy than CPU: what a request allocates does not depend on the machine). */
    Map<Long, Long> allocations() {
        long[] ids = THREADS.getAllThreadIds();
        long[] bytes = THREADS.getThreadAllocatedBytes(ids);
        Map<Long, Long> out = new HashMap<>();
        for (int i = 0; i < ids.length; i++) if (bytes[i] >= 0) out.put(ids[i], bytes[i]);
        return out;
    }

    /** Adds what each group allocated between two {@link #allocations()} to {@code into} (bytes). */
    void addAllocations(Map<Long, Long> before, Map<Long, Long> after, Map<String, Long> into) {
        for (Map.Entry<Long, Long> e : after.entrySet()) {
            long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            ThreadInfo info = THREADS.getThreadInfo(e.getKey());
            if (info != null && d > 0) into.merge(group(info.getThreadName()), d, Long::sum);
        }
    }

    /** Adds what each group used between two snapshots to {@code into} (nanoseconds). */
    void addDelta(Map<Long, Long> before, Map<Long, Long> after, Map<String, Long> into) {
        long threads = 0;
        for (Map.Entry<Long, Long> e : after.entrySet()) {
            if (e.getKey() < 0) continue; // the process's total and the JVM's counters
            long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            ThreadInfo info = THREADS.getThreadInfo(e.getKey());
            if (info == null || d <= 0) continue; // a thread that ended took its count with it: it lands in UNACCOUNTED
            threads += d;
            into.merge(group(info.getThreadName()), d, Long::sum);
        }
        into.merge(UNACCOUNTED, after.get(-1L) - before.get(-1L) - threads, Long::sum);
        // not CPU: wall time the collectors report (pauses and concurrent phases), the JIT's compile time, and the
        // number of collections (in millionths, so that the table's "per start" column reads collections per start)
        into.merge(GC_TIME, after.get(-2L) - before.get(-2L), Long::sum);
        into.merge(JIT_TIME, after.get(-3L) - before.get(-3L), Long::sum);
        into.merge(GC_COUNT, after.get(-4L) - before.get(-4L), Long::sum);
    }

    String group(String name) {
        for (Map.Entry<Integer, String> p : portNames.entrySet()) {
            if (name.contains("-" + p.getKey() + "-")) return p.getValue() + " request threads";
        }
        return name.replaceAll("\\d+", "#");
    }

    /** Prints both configurations' groups side by side, milliseconds (or KB) per start, largest difference first. */
    static void print(Map<String, Long> a, Map<String, Long> b, int starts, String aName, String bName) {
        print(a, b, starts, aName, bName, "CPU", "ms", 1e6);
    }

    static void print(Map<String, Long> a, Map<String, Long> b, int starts, String aName, String bName, String what,
                      String unit, double perUnit) {
        Map<String, long[]> rows = new TreeMap<>();
        a.forEach((k, v) -> rows.computeIfAbsent(k, x -> new long[2])[0] = v);
        b.forEach((k, v) -> rows.computeIfAbsent(k, x -> new long[2])[1] = v);
        System.out.printf("%n%s by thread group during the timed starts (%s per start; %d starts each):%n", what, unit, starts);
        System.out.printf("  %-48s %9s %9s %9s%n", "group", aName, bName, "diff");
        rows.entrySet().stream()
                .sorted((x, y) -> Long.compare(Math.abs(y.getValue()[0] - y.getValue()[1]), Math.abs(x.getValue()[0] - x.getValue()[1])))
                .filter(e -> Math.max(e.getValue()[0], e.getValue()[1]) / perUnit / starts >= 0.005)
                .forEach(e -> System.out.printf("  %-48s %9.3f %9.3f %+9.3f%n", e.getKey(), e.getValue()[0] / perUnit / starts,
                        e.getValue()[1] / perUnit / starts, (e.getValue()[0] - e.getValue()[1]) / perUnit / starts));
    }
}
