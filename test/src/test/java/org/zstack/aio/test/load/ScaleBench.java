package org.zstack.aio.test.load;

import org.zstack.aio.db.DatabaseSettings;
import org.zstack.aio.db.SchemaUpgrade;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import com.sun.management.GarbageCollectionNotificationInfo;

import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Scale benchmark (not a unit test; {@code bin/aio-load scale [volumes]}): an existing platform installation on
 * MariaDB at the 4.8.0 baseline is filled with 100k volumes on 1k primary storages, 10k VMs and 1k hosts (JDBC batches),
 * upgraded to this build (timed), booted (timed), then measured through the REST API: a paged volume list, a
 * filtered query, the impact preview of a global change (time and extra heap), and a VM start on a simulated agent,
 * compared with the same start on an empty database.
 */
public final class ScaleBench {

    static final int WARM_UP_CYCLES = 400;

    public static void main(String[] a) throws Exception {
        int volumes = a.length > 0 ? Integer.parseInt(a[0]) : 100_000;
        int storages = Math.max(1, volumes / 100);
        int vms = Math.max(1, volumes / 10);
        int hosts = Math.max(1, volumes / 100);
        try (TestDatabase db = TestDatabase.mariadb(); SimulatedAgent agent = new SimulatedAgent()) {
            DatabaseSettings settings = new DatabaseSettings(db.url(), db.user(), db.password());
            new SchemaUpgrade(SchemaUpgrade.configure(settings, List.of(SchemaUpgrade.DEFAULT_LOCATION), SchemaUpgrade.BASELINE_VERSION)).migrate();
            long f0 = System.nanoTime();
            fill(db, hosts, storages, vms, volumes);
            System.out.printf("scale: filled %d volumes, %d storages, %d VMs, %d hosts at 4.8.0 in %.1f s%n", volumes, storages,
                    vms, hosts, (System.nanoTime() - f0) / 1e9);
            long u0 = System.nanoTime();
            new SchemaUpgrade(SchemaUpgrade.configure(settings, List.of(SchemaUpgrade.DEFAULT_LOCATION), null)).migrate();
            System.out.printf("scale: upgrade 4.8.0 -> this build on that data: %.1f s%n", (System.nanoTime() - u0) / 1e9);
            long b0 = System.nanoTime();
            try (RunningServer server = RunningServer.start(db, Map.of("aio.embedded-agent", "false"))) {
                System.out.printf("scale: server boot to ready on that data: %.1f s%n", (System.nanoTime() - b0) / 1e9);
                measure(server, agent, storages, volumes, "100k");
                // the VM start against an empty database, in a server running beside this one, starts interleaved: run
                // one after the other, the second database measured also had the JIT's work of the first
                try (TestDatabase empty = TestDatabase.mariadb(); SimulatedAgent fresh = new SimulatedAgent();
                     RunningServer emptyServer = RunningServer.start(empty, Map.of("aio.embedded-agent", "false"))) {
                    vmStarts(new Fixture(server), new Fixture(emptyServer), fresh);
                }
            }
        }
        System.exit(0);
    }

    static void fill(TestDatabase db, int hosts, int storages, int vms, int volumes) throws Exception {
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            try (PreparedStatement s = c.prepareStatement("INSERT INTO AccountVO (uuid, name, password, type) VALUES (?,?,?,?)")) {
                s.setString(1, id("acct", 0));
                s.setString(2, "scale-tenant");
                s.setString(3, "not-a-login");
                s.setString(4, "Normal");
                s.executeUpdate();
            }
            batch(c, "INSERT INTO HostVO (uuid, name, managementIp, agentPort, status) VALUES (?,?,?,?,?)", hosts, (s, i) -> {
                s.setString(1, id("host", i));
                s.setString(2, "host-" + i);
                s.setString(3, "127.0." + (i / 250) + "." + (1 + i % 250)); // never called: not enrolled with this server
                s.setInt(4, 7070);
                s.setString(5, "Connected");
            });
            String[] types = {"LocalStorage", "LocalStorage", "LocalStorage", "LocalStorage", "LocalStorage", "LocalStorage",
                    "LocalStorage", "NFS", "NFS", "SharedBlock"};
            batch(c, "INSERT INTO PrimaryStorageVO (uuid, name, type, url, status) VALUES (?,?,?,?,?)", storages, (s, i) -> {
                s.setString(1, id("ps", i));
                s.setString(2, "ps-" + i);
                s.setString(3, types[i % types.length]);
                s.setString(4, "/var/lib/aio-scale/ps-" + i);
                s.setString(5, "Connected");
            });
            batch(c, "INSERT INTO VmInstanceVO (uuid, name, hostUuid, state, memorySize, cpuNum, accountUuid) VALUES (?,?,?,?,?,?,?)",
                    vms, (s, i) -> {
                        s.setString(1, id("vm", i));
                        s.setString(2, "vm-" + i);
                        s.setString(3, id("host", i % hosts));
                        s.setString(4, "Stopped");
                        s.setLong(5, 1L << 30);
                        s.setInt(6, 2);
                        s.setString(7, id("acct", 0));
                    });
            batch(c, "INSERT INTO VolumeVO (uuid, name, primaryStorageUuid, vmInstanceUuid, deviceId, installPath, format, size, "
                     + "actualSize, accountUuid, createDate) VALUES (?,?,?,?,?,?,?,?,?,?, DATE_ADD('2026-01-01', INTERVAL ? SECOND))",
                    volumes, (s, i) -> {
                        int ps = (i * 7919) % storages; // spread, not in blocks
                        s.setString(1, id("vol", i));
                        s.setString(2, "vol-" + i);
                        s.setString(3, id("ps", ps));
                        s.setString(4, i / 10 < vms ? id("vm", i / 10) : null);
                        s.setInt(5, i % 10);
                        s.setString(6, "/var/lib/aio-scale/ps-" + ps + "/" + id("vol", i) + ".qcow2");
                        s.setString(7, i % 5 == 4 ? "raw" : "qcow2");
                        s.setLong(8, 10L << 30);
                        s.setLong(9, i % 2 == 0 ? 10L << 30 : 196_608);
                        s.setString(10, id("acct", 0));
                        s.setInt(11, i);
                    });
            c.commit();
        }
    }

    interface Row {
        void set(PreparedStatement s, int i) throws Exception;
    }

    static void batch(Connection c, String sql, int n, Row row) throws Exception {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < n; i++) {
                row.set(s, i);
                s.addBatch();
                if (i % 2000 == 1999) {
                    s.executeBatch();
                    c.commit();
                }
            }
            s.executeBatch();
        }
    }

    /** A uuid per kind and index, distinct across kinds (a uuid names one resource in every table). */
    static String id(String kind, int i) {
        String prefix = switch (kind) {
            case "vol" -> "a1";
            case "vm" -> "b2";
            case "ps" -> "c3";
            case "host" -> "d4";
            default -> "e5";
        };
        return prefix + String.format("%030x", i);
    }

    static void measure(RunningServer server, SimulatedAgent agent, int storages, int volumes, String label) throws Exception {
        Fixture f = new Fixture(server);
        String admin = f.adminSession();
        Http http = f.http;
        Random rnd = new Random(42);
        // warm-up: with 30 requests the first row measured was still the JIT's (random pages p50 21.6 ms in the bench,
        // 7.3-10.2 ms once warm on the same data), so every kind of request is warmed up first
        for (int i = 0; i < 100; i++) {
            http.get("/v1/volumes?limit=50&start=" + rnd.nextInt(volumes) + "&replyWithCount=true", admin);
            http.get("/v1/volumes?q=primaryStorageUuid=" + id("ps", rnd.nextInt(storages)) + "&limit=50&replyWithCount=true", admin);
            http.get("/v1/volumes?q=vmInstanceUuid=" + id("vm", rnd.nextInt(Math.max(1, volumes / 10))) + "&limit=50", admin);
        }
        long[] paged = timed(300, () -> ok(http.get("/v1/volumes?limit=50&start=" + rnd.nextInt(Math.max(1, volumes - 50))
                                                    + "&replyWithCount=true", admin)));
        long[] firstPages = timed(300, () -> ok(http.get("/v1/volumes?limit=50&start=" + 50 * rnd.nextInt(20)
                                                         + "&replyWithCount=true", admin)));
        long[] filtered = timed(300, () -> ok(http.get("/v1/volumes?q=primaryStorageUuid=" + id("ps", rnd.nextInt(storages))
                                                       + "&limit=50&replyWithCount=true", admin)));
        long[] byVm = timed(300, () -> ok(http.get("/v1/volumes?q=vmInstanceUuid=" + id("vm", rnd.nextInt(volumes / 10))
                                                   + "&limit=50", admin)));
        report(label + " paged list (random start, limit 50, replyWithCount)", paged);
        report(label + " paged list (first 1000 volumes)", firstPages);
        report(label + " filtered query (q=primaryStorageUuid, ~100 matches)", filtered);
        report(label + " filtered query (q=vmInstanceUuid, 10 matches)", byVm);

        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        java.util.Set<String> heapPools = new java.util.HashSet<>();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) if (p.getType() == MemoryType.HEAP) heapPools.add(p.getName());
        for (int run = 1; run <= 5; run++) {
            System.gc();
            Thread.sleep(200);
            long base = mem.getHeapMemoryUsage().getUsed();
            AtomicLong peak = new AtomicLong(base);
            AtomicBoolean done = new AtomicBoolean();
            Thread sampler = new Thread(() -> {
                while (!done.get()) {
                    peak.accumulateAndGet(mem.getHeapMemoryUsage().getUsed(), Math::max);
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            // the peak above counts garbage not yet collected (G1 lets the young generation grow to ~300 MB here); what
            // the call keeps alive is the heap in use right after each collection during it
            AtomicLong liveAfterGc = new AtomicLong(-1);
            AtomicLong collections = new AtomicLong();
            NotificationListener afterGc = (n, handback) -> {
                if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) return;
                GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                long used = info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream() // every pool: keep the heap's
                        .filter(e -> heapPools.contains(e.getKey())).mapToLong(e -> e.getValue().getUsed()).sum();
                collections.incrementAndGet();
                liveAfterGc.accumulateAndGet(used, Math::max);
            };
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).addNotificationListener(afterGc, null, null);
            }
            sampler.start();
            long t0 = System.nanoTime();
            Http.Response r = ok(http.get("/v1/io-mode/impact?category=kvm&name=vm.ioMode&value=native", admin));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            done.set(true);
            sampler.join();
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                ((NotificationEmitter) gc).removeNotificationListener(afterGc);
            }
            System.out.printf("scale: %s impact preview run %d: %d ms, %d volumes, %d change, peak extra heap %d MB"
                              + " (garbage included); %d collections during it, extra heap in use after them at most %s;"
                              + " heap in use before %d MB of %d MB%n",
                    label, run, ms, r.body().path("inventory").path("volumes").asLong(),
                    r.body().path("inventory").path("changed").asLong(), (peak.get() - base) >> 20, collections.get(),
                    liveAfterGc.get() < 0 ? "(none ran)" : ((liveAfterGc.get() - base) >> 20) + " MB", base >> 20,
                    mem.getHeapMemoryUsage().getMax() >> 20);
        }
    }

    /** One bench VM (4 volumes, auto) on a server, its host on {@code agent}. */
    record BenchVm(Fixture f, String admin, String vm) {
        static BenchVm on(Fixture f, SimulatedAgent agent) {
            String admin = f.adminSession();
            String local = f.primaryStorage(admin, "bench-local", "LocalStorage", "/var/tmp/aio-scale/local");
            String host = f.host(admin, agent.port(), agent.enrollmentToken());
            f.http.put("/v1/global-configurations/kvm/vm.ioMode/actions", admin, "{\"updateGlobalConfig\":{\"value\":\"auto\"}}");
            List<String> vols = new ArrayList<>();
            for (int j = 0; j < 4; j++) vols.add(f.volume(admin, "bench-" + j, "qcow2", j % 2 == 0 ? "full" : "none", local, host));
            return new BenchVm(f, admin, f.vm(admin, "bench", host, vols));
        }

        /** Starts and stops the VM; the start's time in nanoseconds. */
        long cycle() {
            long t0 = System.nanoTime();
            watched(() -> f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}"));
            long took = System.nanoTime() - t0;
            watched(() -> f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}"));
            return took;
        }
    }

    /**
     * A VM start on the 100k database against the same on an empty one, on a simulated agent (a new one: the first idled
     * through the fill), starts interleaved so both servers have the same JIT and machine behind them.
     */
    static void vmStarts(Fixture big, Fixture empty, SimulatedAgent agent) {
        BenchVm a = BenchVm.on(big, agent);
        BenchVm b = BenchVm.on(empty, agent);
        // warm-up: after 20 cycles the JIT still compiled through the measured starts (27-36 ms of compile time per start)
        for (int i = 0; i < WARM_UP_CYCLES; i++) {
            a.cycle();
            b.cycle();
        }
        long[] startsA = new long[100];
        long[] startsB = new long[100];
        ThreadCpu threadCpu = new ThreadCpu(Map.of());
        Map<Long, Long> cpu0 = threadCpu.snapshot();
        for (int i = 0; i < startsA.length; i++) {
            boolean bigFirst = i % 2 == 0;
            if (bigFirst) startsA[i] = a.cycle();
            startsB[i] = b.cycle();
            if (!bigFirst) startsA[i] = a.cycle();
        }
        report("100k VM start (4 volumes, auto, simulated agent, interleaved)", startsA);
        report("empty VM start (the same, interleaved)", startsB);
        // what ran in this JVM meanwhile, per start of either: a large inventory's background work would show here
        Map<String, Long> groups = new java.util.HashMap<>();
        threadCpu.addDelta(cpu0, threadCpu.snapshot(), groups);
        ThreadCpu.print(groups, Map.of(), startsA.length + startsB.length, "both", "-");
    }

    /**
     * Runs a VM start or stop; if it has not answered after 15 s, writes every thread of this JVM (server, simulated
     * agent and client all run here) to a file, so that a hang (once in ~10 runs the simulated agent's answer never
     * came within the 120 s limit) can be read afterwards.
     */
    static Http.Response watched(java.util.function.Supplier<Http.Response> call) {
        java.util.concurrent.ScheduledFuture<?> dump = WATCHDOG.schedule(ScaleBench::dumpThreads, 15, java.util.concurrent.TimeUnit.SECONDS);
        try {
            return ok(call.get());
        } finally {
            dump.cancel(false);
        }
    }

    private static final java.util.concurrent.ScheduledExecutorService WATCHDOG =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "scale-watchdog");
                t.setDaemon(true);
                return t;
            });

    private static void dumpThreads() {
        java.nio.file.Path out = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), "scale-hang-" + System.currentTimeMillis() + ".txt");
        StringBuilder b = new StringBuilder();
        for (java.lang.management.ThreadInfo t : ManagementFactory.getThreadMXBean().dumpAllThreads(true, true)) {
            b.append('"').append(t.getThreadName()).append("\" ").append(t.getThreadState());
            if (t.getLockName() != null) b.append(" on ").append(t.getLockName());
            if (t.getLockOwnerName() != null) b.append(" owned by ").append(t.getLockOwnerName());
            b.append('\n');
            for (StackTraceElement e : t.getStackTrace()) b.append("    at ").append(e).append('\n');
            b.append('\n');
        }
        try {
            java.nio.file.Files.writeString(out, b);
            System.err.println("scale: a VM start or stop has not answered for 15 s; threads written to " + out);
        } catch (java.io.IOException e) {
            System.err.println("scale: cannot write the thread dump: " + e);
        }
    }

    static Http.Response ok(Http.Response r) {
        if (r.status() != 200) throw new IllegalStateException(r.status() + " " + r.raw());
        return r;
    }

    static long[] timed(int n, Runnable call) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            call.run();
            out[i] = System.nanoTime() - t0;
        }
        return out;
    }

    static void report(String what, long[] nanos) {
        long[] s = nanos.clone();
        Arrays.sort(s);
        System.out.printf("scale: %s: n=%d p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", what, s.length, s[s.length / 2] / 1e6,
                s[(int) Math.ceil(s.length * 0.99) - 1] / 1e6, s[s.length - 1] / 1e6);
    }
}
