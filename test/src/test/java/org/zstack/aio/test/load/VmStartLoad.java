package org.zstack.aio.test.load;

import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
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
import java.util.function.Supplier;
import java.time.Duration;

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
                    System.out.printf("servers in their own JVMs (-Xmx512m), logs in %s and %s%n",
                            ServerProcess.logFile("plugin-on"), ServerProcess.logFile("plugin-off"));
                    measure(new Fixture(on.baseUrl()), new Fixture(off.baseUrl()), on::cpu, off::cpu, null, agent, vms, volumes,
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
     * Warm-up, then {@code rounds} timed round pairs. With {@code cpuOn}/{@code cpuOff} (servers in their own JVMs) the
     * CPU per start is that server process's alone; without (both in this JVM) it is this JVM's, client included, and
     * {@code threadCpu} breaks it down by thread group.
     */
    static void measure(Fixture fOn, Fixture fOff, Supplier<Duration> cpuOn, Supplier<Duration> cpuOff, ThreadCpu threadCpu,
                        SimulatedAgent agent, int vms, int volumes, int rounds, int threads) throws Exception {
        System.out.printf("creating %d VMs x %d volumes on each server...%n", vms, volumes);
        Setup sa = setup(fOn, agent, vms, volumes, cpuOn);
        Setup sb = setup(fOff, agent, vms, volumes, cpuOff);
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
        for (int i = 0; i < WARM_UP_ROUNDS; i++) {
            round(i % 2 == 0 ? sa : sb, pool);
            round(i % 2 == 0 ? sb : sa, pool);
        }
        Map<String, Long> groupsA = new java.util.HashMap<>();
        Map<String, Long> groupsB = new java.util.HashMap<>();
        Map<String, Long> allocA = new java.util.HashMap<>();
        Map<String, Long> allocB = new java.util.HashMap<>();
        double[] ra = new double[rounds];
        double[] rb = new double[rounds];
        double[] ca = new double[rounds];
        double[] cb = new double[rounds];
        for (int i = 0; i < rounds; i++) {
            // A B, then B A: neither configuration always runs right after the other's stops
            boolean onFirst = i % 2 == 0;
            double[] x = round(onFirst ? sa : sb, pool, threadCpu, onFirst ? groupsA : groupsB, onFirst ? allocA : allocB);
            double[] y = round(onFirst ? sb : sa, pool, threadCpu, onFirst ? groupsB : groupsA, onFirst ? allocB : allocA);
            ra[i] = (onFirst ? x : y)[0];
            ca[i] = (onFirst ? x : y)[1];
            rb[i] = (onFirst ? y : x)[0];
            cb[i] = (onFirst ? y : x)[1];
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
        System.out.printf("  CPU per timed start, " + (cpuOn != null ? "each server's own JVM" : "this JVM (servers + client)")
                          + ": plugin on %.2f ms (min %.2f, max %.2f),"
                          + " off %.2f ms (min %.2f, max %.2f): %+.1f%%%n", median(ca), min(ca), max(ca), median(cb), min(cb),
                max(cb), (median(ca) / median(cb) - 1) * 100);
        if (threadCpu != null) {
            ThreadCpu.print(groupsA, groupsB, rounds * vms, "on", "off");
            ThreadCpu.print(allocA, allocB, rounds * vms, "on", "off", "Allocation", "KB", 1024);
        }
    }

    /** One server's VMs; {@code cpu} is its own process's CPU when it runs in one (else null: this JVM's). */
    record Setup(Fixture f, String admin, List<String> vms, Supplier<Duration> cpu) {
    }

    static Setup setup(Fixture f, SimulatedAgent agent, int vms, int volumes, Supplier<Duration> cpu) {
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
        return new Setup(f, admin, ids, cpu);
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
        if (s.cpu() == null) System.gc(); // (a server in its own JVM collects its own garbage)
        Map<Long, Long> allocBefore = threadCpu == null ? null : threadCpu.allocations();
        Map<Long, Long> before = threadCpu == null ? null : threadCpu.snapshot();
        long cpu0 = cpuNanos(s);
        long t0 = System.nanoTime();
        runAll(s, pool, "{\"startVmInstance\":{}}", failed);
        double secs = (System.nanoTime() - t0) / 1e9;
        double cpuMs = (cpuNanos(s) - cpu0) / 1e6 / s.vms().size();
        if (threadCpu != null) {
            threadCpu.addDelta(before, threadCpu.snapshot(), groups);
            threadCpu.addAllocations(allocBefore, threadCpu.allocations(), allocations);
        }
        runAll(s, pool, "{\"stopVmInstance\":{}}", failed);
        if (failed.get() > 0) throw new IllegalStateException(failed.get() + " calls failed");
        return new double[]{s.vms().size() / secs, cpuMs};
    }

    private static long cpuNanos(Setup s) {
        return s.cpu() != null ? s.cpu().get().toNanos() : CPU.getProcessCpuTime();
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

    static double min(double[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    static double max(double[] v) {
        return Arrays.stream(v).max().orElse(0);
    }
}
