package org.zstack.aio.test.load;

import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.PrometheusText;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Load script (not a unit test): VM starts per second through the REST API, on MariaDB, against a simulated agent
 * that answers at once, with the plugin on (A) and off (B) in the same run, rounds interleaved A B A B so that
 * machine noise hits both alike. Each round starts every VM then stops it again.
 * <p>Run: {@code bin/aio-load [vms] [volumesPerVm] [rounds] [threads]}; prints a table and the A/B overhead.
 */
public final class VmStartLoad {

    static final int WARM_UP_ROUNDS = 40;

    public static void main(String[] a) throws Exception {
        int vms = a.length > 0 ? Integer.parseInt(a[0]) : 200;
        int volumes = a.length > 1 ? Integer.parseInt(a[1]) : 4;
        int rounds = a.length > 2 ? Integer.parseInt(a[2]) : 5;
        int threads = a.length > 3 ? Integer.parseInt(a[3]) : 8;
        boolean separate = !"shared".equals(System.getProperty("aio.load.jvms", "separate"));
        Map<String, String> onProps = Map.of("aio.embedded-agent", "false",
                "spring.jpa.properties.hibernate.generate_statistics", "false", "logging.level.root", "warn");
        Map<String, String> offProps = new java.util.HashMap<>(onProps);
        offProps.put("aio.plugin.enabled", "false");
        try (SimulatedAgent agent = new SimulatedAgent();
             TestDatabase dbA = TestDatabase.mariadb(); TestDatabase dbB = TestDatabase.mariadb()) {
            if (separate) {
                try (ServerProcess on = ServerProcess.start(dbA, onProps, ServerProcess.logFile("plugin-on"));
                     ServerProcess off = ServerProcess.start(dbB, offProps, ServerProcess.logFile("plugin-off"))) {
                    System.out.printf("servers in their own JVMs (-Xms512m -Xmx512m), logs in %s and %s%n",
                            ServerProcess.logFile("plugin-on"), ServerProcess.logFile("plugin-off"));
                    measure(new Fixture(on.baseUrl()), new Fixture(off.baseUrl()), on, off, null, agent, vms, volumes,
                            rounds, threads);
                }
            } else {
                try (RunningServer on = RunningServer.start(dbA, onProps); RunningServer off = RunningServer.start(dbB, offProps)) {
                    System.out.println("both servers in this JVM (-Daio.load.jvms=shared)");
                    measure(new Fixture(on), new Fixture(off), null, null,
                            new ThreadCpu(Map.of(on.port(), "plugin on", off.port(), "plugin off")), agent, vms, volumes, rounds,
                            threads);
                }
            }
        }
        System.exit(0); // the servers' pools are not all daemon threads
    }

    /**
     * Warm-up, then {@code rounds} timed round pairs. With {@code processOn}/{@code processOff} (servers in their own JVMs) the
     * CPU per start is that server process's alone, broken down by its threads ({@link ProcThreadCpu}); without (both in
     * this JVM) it is this JVM's, client included, and {@code threadCpu} breaks it down by thread group.
     */
    static void measure(Fixture fOn, Fixture fOff, ServerProcess processOn, ServerProcess processOff, ThreadCpu threadCpu,
                        SimulatedAgent agent, int vms, int volumes, int rounds, int threads) throws Exception {
        System.out.printf("creating %d VMs x %d volumes on each server...%n", vms, volumes);
        Setup sa = setup(fOn, agent, vms, volumes, processOn);
        Setup sb = setup(fOff, agent, vms, volumes, processOff);
        for (Setup s : List.of(sa, sb)) { // what a start answers (the plugin's lists each disk's decision and checks)
            String vm = s.vms().get(0);
            Http.Response r = s.f().http.put("/v1/vm-instances/" + vm + "/actions", s.admin(), "{\"startVmInstance\":{}}");
            System.out.printf("a start's answer with the plugin %s: %d bytes%n", s == sa ? "on" : "off", r.raw().length());
            s.f().http.put("/v1/vm-instances/" + vm + "/actions", s.admin(), "{\"stopVmInstance\":{}}");
        }
        System.out.println("measuring...");
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        // warm-up both: the JIT takes many rounds to settle (CPU per start fell from 14-16 ms to 5-6 ms over the
        // first ten measured rounds when only one round warmed up, and still from 5.5 to 2.5 ms over the first
        // ten after ten warm-up pairs of 200 VMs, and a server in its own JVM from 4.6 to 2.0 ms over the first ten
        // after twenty); measured rounds start settled
        warmUp(sa, sb, pool);
        Map<String, Long> groupsA = new java.util.HashMap<>();
        Map<String, Long> groupsB = new java.util.HashMap<>();
        Map<String, Long> allocA = new java.util.HashMap<>();
        Map<String, Long> allocB = new java.util.HashMap<>();
        double[] ra = new double[rounds];
        double[] rb = new double[rounds];
        double[] ca = new double[rounds];
        double[] cb = new double[rounds];
        double[] gcA = new double[2]; // collections and pause seconds during the timed starts, summed over the rounds
        double[] gcB = new double[2];
        for (int i = 0; i < rounds; i++) {
            // A B, then B A: neither configuration always runs right after the other's stops
            boolean onFirst = i % 2 == 0;
            double[] x = round(onFirst ? sa : sb, pool, threadCpu, onFirst ? groupsA : groupsB, onFirst ? allocA : allocB);
            double[] y = round(onFirst ? sb : sa, pool, threadCpu, onFirst ? groupsB : groupsA, onFirst ? allocB : allocA);
            ra[i] = (onFirst ? x : y)[0];
            ca[i] = (onFirst ? x : y)[1];
            rb[i] = (onFirst ? y : x)[0];
            cb[i] = (onFirst ? y : x)[1];
            for (int k = 0; k < 2; k++) {
                gcA[k] += (onFirst ? x : y)[2 + k];
                gcB[k] += (onFirst ? y : x)[2 + k];
            }
            System.out.printf("round %d (%s first): plugin on %.1f starts/s (%.2f ms CPU/start), plugin off %.1f starts/s"
                              + " (%.2f ms CPU/start)%n", i + 1, onFirst ? "on" : "off", ra[i], ca[i], rb[i], cb[i]);
        }
        pool.shutdown();
        double ma = median(ra);
        double mb = median(rb);
        System.out.printf("%nVM starts/s (median of %d rounds, %d VMs x %d volumes, %d client threads, MariaDB):%n",
                rounds, vms, volumes, threads);
        System.out.printf("  plugin on : %.1f  (min %.1f, max %.1f)%n", ma, min(ra), max(ra));
        System.out.printf("  plugin off: %.1f  (min %.1f, max %.1f)%n", mb, min(rb), max(rb));
        System.out.printf("  overhead of the plugin on the VM-start path: %.1f%%%n", (mb / ma - 1) * 100);
        double[] paired = new double[rounds]; // each round's pair ran back to back: the machine's swings cancel most
        for (int i = 0; i < rounds; i++) paired[i] = (rb[i] / ra[i] - 1) * 100;
        System.out.printf("  overhead, median of the %d rounds' own off/on ratios: %.1f%% (min %.1f%%, max %.1f%%)%n",
                rounds, median(paired), min(paired), max(paired));
        System.out.printf("  CPU per timed start, " + (processOn != null ? "each server's own JVM" : "this JVM (servers + client)")
                          + ": plugin on %.2f ms (min %.2f, max %.2f),"
                          + " off %.2f ms (min %.2f, max %.2f): %+.1f%%%n", median(ca), min(ca), max(ca), median(cb), min(cb),
                max(cb), (median(ca) / median(cb) - 1) * 100);
        // the per-round figures come in steps of 10 ms per round (the kernel's tick): the totals are finer
        System.out.printf("  CPU per timed start, all rounds' total: plugin on %.3f ms, off %.3f ms: %+.1f%%%n", mean(ca), mean(cb),
                (mean(ca) / mean(cb) - 1) * 100);
        double[] pairedCpu = new double[rounds];
        for (int i = 0; i < rounds; i++) pairedCpu[i] = (ca[i] / cb[i] - 1) * 100;
        System.out.printf("  CPU per timed start, median of the %d rounds' own on/off ratios: %+.1f%% (min %+.1f%%, max %+.1f%%)%n",
                rounds, median(pairedCpu), min(pairedCpu), max(pairedCpu));
        if (processOn != null) {
            int starts = rounds * vms;
            System.out.printf("%nEach server process's CPU by thread (kernel thread names, numbers taken out):");
            ThreadCpu.print(groupsA, groupsB, starts, "on", "off");
            System.out.printf("  collections during the timed starts (each server's /metrics): plugin on %.0f (%.1f per 1,000 starts,"
                              + " %.3f ms of pauses per start), off %.0f (%.1f per 1,000 starts, %.3f ms per start)%n", gcA[0],
                    gcA[0] * 1000 / starts, gcA[1] * 1000 / starts, gcB[0], gcB[0] * 1000 / starts, gcB[1] * 1000 / starts);
        }
        if (threadCpu != null) {
            ThreadCpu.print(groupsA, groupsB, rounds * vms, "on", "off");
            ThreadCpu.print(allocA, allocB, rounds * vms, "on", "off", "Allocation", "KB", 1024);
        }
    }

    /** Warm-up pairs after which a server whose JIT has not settled is measured anyway (and the bench says so). */
    static final int MAX_WARM_UP_ROUNDS = 200;
    /** Pairs over which the JIT's share is taken. */
    static final int JIT_WINDOW = 5;
    /** The JIT's share of a server's CPU under which it counts as settled. */
    static final double JIT_SETTLED = 0.01;

    /**
     * {@link #WARM_UP_ROUNDS} round pairs, then, for servers in their own JVMs, more until each server's JIT compiler
     * threads used at most {@link #JIT_SETTLED} of its CPU over the last {@link #JIT_WINDOW} pairs. With a fixed
     * warm-up of 40 pairs, the compiler threads still took 0.23 and 0.08 ms per timed start of the two servers (2.8-3.1
     * ms): the A/B measured whose JIT was further behind.
     */
    static void warmUp(Setup sa, Setup sb, ExecutorService pool) throws Exception {
        java.util.ArrayDeque<double[]> window = new java.util.ArrayDeque<>(); // per pair: {jit a, all a, jit b, all b}
        for (int i = 0; ; i++) {
            double[] a0 = jitAndAll(sa);
            double[] b0 = jitAndAll(sb);
            round(i % 2 == 0 ? sa : sb, pool);
            round(i % 2 == 0 ? sb : sa, pool);
            if (sa.process() == null) {
                if (i + 1 >= WARM_UP_ROUNDS) return;
                continue;
            }
            double[] a1 = jitAndAll(sa);
            double[] b1 = jitAndAll(sb);
            window.addLast(new double[]{a1[0] - a0[0], a1[1] - a0[1], b1[0] - b0[0], b1[1] - b0[1]});
            if (window.size() > JIT_WINDOW) window.removeFirst();
            double[] sum = new double[4];
            for (double[] w : window) for (int k = 0; k < 4; k++) sum[k] += w[k];
            double shareA = sum[0] / sum[1];
            double shareB = sum[2] / sum[3];
            boolean settled = i + 1 >= WARM_UP_ROUNDS && window.size() == JIT_WINDOW && shareA <= JIT_SETTLED && shareB <= JIT_SETTLED;
            if (settled || i + 1 >= MAX_WARM_UP_ROUNDS) {
                System.out.printf("warm-up: %d round pairs; the JIT's share of each server's CPU over the last %d: plugin on"
                                  + " %.1f%%, off %.1f%%%s%n", i + 1, window.size(), shareA * 100, shareB * 100,
                        settled ? "" : " (NOT settled below " + JIT_SETTLED * 100 + " %: the A/B below includes JIT work)");
                return;
            }
        }
    }

    /** A server process's JIT compiler threads' CPU and its whole CPU so far, nanoseconds. */
    static double[] jitAndAll(Setup s) {
        if (s.process() == null) return new double[]{0, 0};
        Map<String, Long> groups = new java.util.HashMap<>();
        ProcThreadCpu.addDelta(Map.of(), ProcThreadCpu.snapshot(s.process().pid()), groups);
        long jit = groups.entrySet().stream().filter(e -> e.getKey().contains("CompilerThre")).mapToLong(Map.Entry::getValue).sum();
        return new double[]{jit, s.process().cpu().toNanos()};
    }

    /** One server's VMs; {@code process} is the server's own JVM when it runs in one (else null: it runs in this JVM). */
    record Setup(Fixture f, String admin, List<String> vms, ServerProcess process) {
    }

    static Setup setup(Fixture f, SimulatedAgent agent, int vms, int volumes, ServerProcess process) {
        String admin = f.adminSession();
        String local = f.primaryStorage(admin, "local", "LocalStorage", "/var/tmp/aio-load/local");
        String block = f.primaryStorage(admin, "block", "SharedBlock", "/var/tmp/aio-load/block");
        String host = f.host(admin, agent.port(), agent.enrollmentToken());
        f.http.put("/v1/global-configurations/kvm/vm.ioMode/actions", admin, "{\"updateGlobalConfig\":{\"value\":\"auto\"}}");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < vms; i++) {
            List<String> vols = new ArrayList<>();
            for (int j = 0; j < volumes; j++) {
                vols.add(f.volume(admin, "v" + i + "-" + j, "qcow2", j % 2 == 0 ? "full" : "none", j == 3 ? block : local, host));
            }
            ids.add(f.vm(admin, "vm" + i, host, vols));
        }
        return new Setup(f, admin, ids, process);
    }

    /**
     * Starts every VM concurrently, returns starts/s and this JVM's CPU milliseconds per start (both servers and the
     * client run here, so it is what a start costs in CPU, less sensitive to the machine's other load than starts/s);
     * then stops them (not timed).
     */
    static double[] round(Setup s, ExecutorService pool) throws Exception {
        return round(s, pool, null, null, null);
    }

    /** The same, adding each thread group's CPU and allocations during the timed starts to the maps when given. */
    static double[] round(Setup s, ExecutorService pool, ThreadCpu threadCpu, Map<String, Long> groups,
                          Map<String, Long> allocations) throws Exception {
        AtomicInteger failed = new AtomicInteger();
        // the previous round's stops left garbage of the other configuration: collected here, outside the timing,
        // so that each timed round pays for its own garbage only (GC was ~40 % of the CPU and fell on rounds at random)
        if (s.process() == null) System.gc(); // (a server in its own JVM collects its own garbage)
        MachineIdle.await();
        Map<Long, Long> allocBefore = threadCpu == null ? null : threadCpu.allocations();
        Map<Long, Long> before = threadCpu == null ? null : threadCpu.snapshot();
        double[] gc0 = gc(s);
        Map<String, Object[]> procBefore = s.process() == null || groups == null ? null : ProcThreadCpu.snapshot(s.process().pid());
        long cpu0 = cpuNanos(s);
        long t0 = System.nanoTime();
        runAll(s, pool, "{\"startVmInstance\":{}}", failed);
        double secs = (System.nanoTime() - t0) / 1e9;
        double cpuMs = (cpuNanos(s) - cpu0) / 1e6 / s.vms().size();
        if (procBefore != null) ProcThreadCpu.addDelta(procBefore, ProcThreadCpu.snapshot(s.process().pid()), groups);
        double[] gc1 = gc(s);
        if (threadCpu != null) {
            threadCpu.addDelta(before, threadCpu.snapshot(), groups);
            threadCpu.addAllocations(allocBefore, threadCpu.allocations(), allocations);
        }
        runAll(s, pool, "{\"stopVmInstance\":{}}", failed);
        if (failed.get() > 0) throw new IllegalStateException(failed.get() + " calls failed");
        return new double[]{s.vms().size() / secs, cpuMs, gc1[0] - gc0[0], gc1[1] - gc0[1]};
    }

    /**
     * A server in its own JVM: its collections so far and their pauses in seconds, from its /metrics (Micrometer's
     * jvm_gc_pause_seconds, every collector and cause); both NaN for servers in this JVM.
     */
    static double[] gc(Setup s) {
        if (s.process() == null) return new double[]{Double.NaN, Double.NaN};
        Map<String, PrometheusText.Family> m = PrometheusText.parse(s.f().http.get("/metrics", s.admin()).raw());
        PrometheusText.Family pauses = m.get("jvm_gc_pause_seconds");
        if (pauses == null) return new double[]{0, 0}; // no collection yet
        double count = 0;
        double sum = 0;
        for (PrometheusText.Sample x : pauses.samples()) {
            if (x.name().equals("jvm_gc_pause_seconds_count")) count += x.value();
            if (x.name().equals("jvm_gc_pause_seconds_sum")) sum += x.value();
        }
        return new double[]{count, sum};
    }

    private static long cpuNanos(Setup s) {
        return s.process() != null ? s.process().cpu().toNanos() : CPU.getProcessCpuTime();
    }

    private static final com.sun.management.OperatingSystemMXBean CPU =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    private static void runAll(Setup s, ExecutorService pool, String body, AtomicInteger failed) throws Exception {
        List<Future<?>> fs = new ArrayList<>();
        for (String vm : s.vms()) {
            fs.add(pool.submit(() -> {
                // the answer is not parsed: a real client parses it on its own machine, here it would share the cores
                Http.Response r = s.f().http.putUnparsed("/v1/vm-instances/" + vm + "/actions", s.admin(), body);
                if (r.status() != 200) {
                    failed.incrementAndGet();
                    System.err.println(r.status() + " " + r.raw());
                }
            }));
        }
        for (Future<?> f : fs) f.get();
    }

    static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    static double mean(double[] v) {
        return Arrays.stream(v).average().orElse(0);
    }

    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(0);
    }
}
