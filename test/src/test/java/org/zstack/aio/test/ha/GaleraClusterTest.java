package org.zstack.aio.test.ha;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.flywaydb.core.api.MigrationVersion;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.zstack.aio.server.agent.SecretBox;
import org.zstack.aio.db.DatabaseSettings;
import org.zstack.aio.db.SchemaUpgrade;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.GaleraCluster;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.OpenLoopLoad;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two management servers on a real 3-node MariaDB Galera cluster (bin/lib/setup-galera.sh): server A writes through
 * node 1, server B through node 2 (jdbc:mariadb:sequential, failing over in ring order). Their first boots run at
 * the same time on an empty database; then concurrent config updates through both, and SIGKILL of each server's
 * database node under load while VMs start and stop on a real agent (real libvirtd + QEMU).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GaleraClusterTest {

    static final List<String> FALLOC = List.of("true", "false");
    /** Test (b): requests per second, open loop, and the keys its writes spread over (one write in flight per key). */
    static final int RATE = 200;
    static final int KEYS = 256;
    static final List<String> IO_MODES = List.of("threads", "native", "io_uring", "auto");

    String db;
    RunningServer a;
    RunningServer b;
    /** The agent-credentials key both management nodes share, as an operator copies it (docs/operations.md). */
    static final byte[] SHARED_KEY = sharedKey();
    Http httpA;
    Http httpB;
    String adminA;
    String adminB;

    @BeforeAll
    void bootTwoServersAtOnce() throws Exception {
        GaleraCluster.require();
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        db = GaleraCluster.createDatabase();
        ExecutorService boot = Executors.newFixedThreadPool(2);
        try {
            Future<RunningServer> fa = boot.submit(() -> server(1));
            // B one second later: two Spring Boot starts in one JVM race in logging set-up (not in the database);
            // the migrations still overlap (each boot takes several seconds before it migrates)
            Future<RunningServer> fb = boot.submit(() -> {
                Thread.sleep(1000);
                return server(2);
            });
            a = fa.get();
            b = fb.get();
        } finally {
            boot.shutdown();
        }
        httpA = new Http(a.baseUrl());
        httpB = new Http(b.baseUrl());
        adminA = new Fixture(a).adminSession();
        adminB = new Fixture(b).adminSession();
    }

    private RunningServer server(int node) throws Exception {
        Path dataDir = Files.createTempDirectory("aio-it-galera");
        // every management node of one database shares the agent-credentials key (docs/operations.md)
        Files.write(dataDir.resolve(SecretBox.KEY_FILE), SHARED_KEY);
        TestDatabase t = new TestDatabase("galera", GaleraCluster.sequentialUrl(db, node), "aio", "aio", dataDir);
        return RunningServer.start(t, Map.of("AIO_LIBVIRT_URI", "qemu:///system"));
    }

    private static byte[] sharedKey() {
        byte[] k = new byte[32];
        new SecureRandom().nextBytes(k);
        return Base64.getEncoder().encode(k);
    }

    /** The versions this build ships (db/migration on the classpath), in Flyway's order. */
    static List<String> shippedVersions() throws Exception {
        return Arrays.stream(new PathMatchingResourcePatternResolver().getResources("classpath*:db/migration/V*__*.sql"))
                .map(r -> r.getFilename().substring(1, r.getFilename().indexOf("__")))
                .map(MigrationVersion::fromVersion)
                .sorted()
                .map(MigrationVersion::getVersion)
                .toList();
    }

    @AfterAll
    void shutDown() throws Exception {
        if (a != null) a.close();
        if (b != null) b.close();
        if (db != null) GaleraCluster.dropDatabase(db);
    }

    @Test
    @Order(1)
    void concurrentFirstBootsLeaveOneCorrectSchemaOnEveryNode() throws Exception {
        List<String> expected = shippedVersions().stream().map(v -> v + "|1").toList();
        for (int n = 1; n <= 3; n++) {
            try (Connection c = GaleraCluster.node(n, db)) {
                assertThat(rows(c, "SELECT CONCAT(version, '|', success) FROM flyway_schema_history ORDER BY installed_rank"))
                        .as("schema history on node %d", n).isEqualTo(expected);
                assertThat(rows(c, "SELECT owner FROM aio_cluster.schema_migration_lease WHERE schema_name = '" + db + "'"))
                        .as("the lease was taken and released (node %d)", n).containsExactly((String) null);
                assertThat(rows(c, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + db + "'"))
                        .as("tables on node %d", n).isEqualTo(rows(GaleraCluster.node(1, db),
                                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + db + "'"));
            }
        }
    }

    /** Four upgrades of one empty database at once through three nodes: each migration applied exactly once. */
    @Test
    @Order(2)
    void concurrentMigrationsThroughDifferentNodesApplyEachVersionOnce() throws Exception {
        String other = GaleraCluster.createDatabase();
        try {
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<SchemaUpgrade.Outcome>> outcomes = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int node = i % 3 + 1;
                outcomes.add(pool.submit(() -> new SchemaUpgrade(SchemaUpgrade.configure(
                        new DatabaseSettings("jdbc:mariadb://127.0.0.1:" + GaleraCluster.port(node) + "/" + other, "aio", "aio"),
                        List.of(SchemaUpgrade.DEFAULT_LOCATION), null)).migrate()));
            }
            int executed = 0;
            for (Future<SchemaUpgrade.Outcome> o : outcomes) executed += o.get().migrationsExecuted();
            pool.shutdown();
            assertThat(executed).as("migrations executed over all four upgrades").isEqualTo(shippedVersions().size());
            for (int n = 1; n <= 3; n++) {
                try (Connection c = GaleraCluster.node(n, other)) {
                    assertThat(rows(c, "SELECT CONCAT(version, '|', success) FROM flyway_schema_history ORDER BY installed_rank"))
                            .as("node %d", n).isEqualTo(shippedVersions().stream().map(v -> v + "|1").toList());
                }
            }
        } finally {
            GaleraCluster.dropDatabase(other);
        }
    }

    /** (a) 4 x 50 concurrent updates of one global config, two threads per server: all 2xx, one value everywhere. */
    @Test
    @Order(3)
    void concurrentConfigUpdatesThroughBothServersAllSucceed() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Integer> statuses = new CopyOnWriteArrayList<>();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Http http = t < 2 ? httpA : httpB;
            String session = t < 2 ? adminA : adminB;
            done.add(pool.submit(() -> {
                for (int i = 0; i < 50; i++) {
                    String v = IO_MODES.get(ThreadLocalRandom.current().nextInt(IO_MODES.size()));
                    Http.Response r = http.put("/v1/global-configurations/kvm/vm.ioMode/actions", session,
                            "{\"updateGlobalConfig\":{\"value\":\"" + v + "\"}}");
                    statuses.add(r.status());
                    if (r.status() / 100 != 2) System.err.println("non-2xx: " + r.raw());
                }
            }));
        }
        for (Future<?> f : done) f.get();
        pool.shutdown();
        assertThat(statuses).hasSize(200);
        assertThat(statuses.stream().filter(s -> s / 100 != 2).toList()).as("non-2xx answers").isEmpty();
        List<String> finals = new ArrayList<>();
        for (int n = 1; n <= 3; n++) {
            try (Connection c = GaleraCluster.node(n, db)) {
                finals.addAll(rows(c, "SELECT value FROM GlobalConfigVO WHERE category = 'kvm' AND name = 'vm.ioMode'"));
            }
        }
        assertThat(finals).hasSize(3);
        assertThat(finals).as("the final value on nodes 1, 2, 3").containsOnly(finals.get(0));
        for (Http http : List.of(httpA, httpB)) {
            assertThat(http.get("/v1/global-configurations/kvm/vm.ioMode", http == httpA ? adminA : adminB)
                    .body().path("inventory").path("value").asText()).isEqualTo(finals.get(0));
        }
        System.out.println("GALERA-HA (a): 200 updates, non-2xx 0, final " + finals);
    }

    /**
     * (b) 200 requests/s, open loop ({@link OpenLoopLoad}), through both servers (half config writes, half reads) while the database node each
     * server writes through is SIGKILLed in turn; (c) each killed node rejoins by IST; (d) meanwhile one VM per
     * server starts and stops on the real agent.
     */
    @Test
    @Order(4)
    void killingEachServersDatabaseNodeUnderLoadLosesNothing() throws Exception {
        Fixture fa = new Fixture(a);
        String storage = Storage.dir("galera-ha");
        String ps = fa.primaryStorage(adminA, "ha-local", "LocalStorage", storage);
        String host = fa.host(adminA, a.agentPort(), a.agentEnrollment());
        List<String> vms = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            String vol = fa.volume(adminA, "ha-vol-" + i, "qcow2", "full", ps, host);
            vms.add(fa.vm(adminA, "ha-vm-" + i, host, List.of(vol)));
        }
        List<String> storages = new ArrayList<>();
        for (int k = 0; k < KEYS; k++) storages.add(fa.primaryStorage(adminA, "ha-ps-" + k, "LocalStorage", storage));
        OpenLoopLoad load = new OpenLoopLoad(List.of(new OpenLoopLoad.Target(a.baseUrl(), adminA),
                new OpenLoopLoad.Target(b.baseUrl(), adminB)), storages, RATE);
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<?>> running = new ArrayList<>();
        List<String> vmAnswers = new CopyOnWriteArrayList<>();
        for (int v = 0; v < 2; v++) {
            Http http = v == 0 ? httpA : httpB;
            String session = v == 0 ? adminA : adminB;
            String vm = vms.get(v);
            running.add(pool.submit(() -> {
                boolean start = true;
                while (!stop.get()) {
                    Http.Response r = http.put("/v1/vm-instances/" + vm + "/actions", session,
                            start ? "{\"startVmInstance\":{}}" : "{\"stopVmInstance\":{}}");
                    vmAnswers.add((start ? "start " : "stop ") + r.status() + (r.status() / 100 == 2 ? "" : " " + r.raw()));
                    if (r.status() / 100 == 2) start = !start;
                    sleepNanos(500_000_000L);
                }
                return null;
            }));
        }

        List<String> rejoins = new ArrayList<>();
        load.start();
        long firstKill;
        try {
            Thread.sleep(4000);
            firstKill = System.nanoTime();
            for (int node : new int[]{1, 2}) {   // server A's node, then server B's node (two at once would lose quorum)
                GaleraCluster.script("kill", Integer.toString(node));
                Thread.sleep(8000);
                String out = GaleraCluster.script("start", Integer.toString(node));
                rejoins.add(out.strip().replace('\n', ';'));
                assertThat(out).as("node %d rejoins by IST", node).contains("by IST");
                assertThat(GaleraCluster.status(node, "wsrep_cluster_size")).isEqualTo("3");
                Thread.sleep(6000);   // the server's pool moves back to its first node (PoolHome checks every 5 s)
            }
        } finally {
            stop.set(true);
            load.stop();
            for (Future<?> f : running) f.get();
            pool.shutdown();
        }

        List<OpenLoopLoad.Sample> all = load.samples();
        long[] latencies = all.stream().mapToLong(r -> r.doneNanos() - r.dueNanos()).sorted().toArray();
        double p99 = latencies[(int) Math.ceil(latencies.length * 0.99) - 1] / 1e6;
        double p50 = latencies[latencies.length / 2] / 1e6;
        double max = latencies[latencies.length - 1] / 1e6;
        long[] before = all.stream().filter(r -> r.dueNanos() < firstKill).mapToLong(r -> r.doneNanos() - r.dueNanos()).sorted().toArray();
        System.out.printf("GALERA-HA (b): before the first kill (%d requests): p50 %.1f ms, p99 %.1f ms%n", before.length,
                before[before.length / 2] / 1e6, before[(int) Math.ceil(before.length * 0.99) - 1] / 1e6);
        long fiveHundreds = all.stream().filter(r -> r.status() >= 500).count();
        List<String> problems = all.stream().filter(r -> r.status() / 100 != 2).map(r -> r.status() + " " + r.answer()).toList();
        long[] writesDone = all.stream().filter(r -> r.write() && r.status() / 100 == 2).mapToLong(OpenLoopLoad.Sample::doneNanos).sorted().toArray();
        long stall = 0;
        for (int i = 1; i < writesDone.length; i++) stall = Math.max(stall, writesDone[i] - writesDone[i - 1]);
        System.out.printf("GALERA-HA (b): open loop at %d/s: %d requests due in %.1f s (%.1f/s held), %d answered, 5xx %d, "
                        + "non-2xx %d, latency from due time p50 %.1f ms, p99 %.1f ms, max %.1f ms, longest gap between "
                        + "acknowledged writes %.2f s, at most %d in flight, %d writes sent as reads (every key busy)%n",
                RATE, Math.round(load.sentPerSecond() * load.seconds()), load.seconds(), load.sentPerSecond(), all.size(),
                fiveHundreds, problems.size(), p50, p99, max, stall / 1e9, load.maxInFlight(), load.readsInsteadOfWrites());
        System.out.println("GALERA-HA (c): " + rejoins);
        System.out.println("GALERA-HA (d): " + vmAnswers);

        assertThat(load.stillInFlight()).as("every request answered").isZero();
        assertThat(load.sentPerSecond()).as("the generator held the rate").isGreaterThanOrEqualTo(RATE * 0.97);
        assertThat(problems).as("answers other than 2xx (and client errors)").isEmpty();
        assertThat(fiveHundreds).isZero();
        // every acknowledged write is on every node: a key's last acknowledged value is its value (one write in flight per key)
        Map<String, String> lastAcked = load.lastAcked();
        assertThat(lastAcked).hasSizeGreaterThan(KEYS / 2);
        for (int n = 1; n <= 3; n++) {
            try (Connection c = GaleraCluster.node(n, db)) {
                for (Map.Entry<String, String> e : lastAcked.entrySet()) {
                    assertThat(rows(c, "SELECT value FROM ResourceConfigVO WHERE resourceUuid = '" + e.getKey()
                            + "' AND category = 'kvm' AND name = 'vm.ioMode.native.allowFalloc'"))
                            .as("node %d, key %s", n, e.getKey()).containsExactly(e.getValue());
                }
            }
        }
        // (d) the VMs: every start/stop answered 2xx, and the state both servers report is what libvirt runs
        assertThat(vmAnswers.stream().filter(s -> !s.matches("(start|stop) 2\\d\\d")).toList()).isEmpty();
        assertThat(vmAnswers.size()).as("VM operations during the faults").isGreaterThanOrEqualTo(4);
        for (String vm : vms) {
            String viaA = httpA.get("/v1/vm-instances/" + vm, adminA).body().path("inventory").path("state").asText();
            String viaB = httpB.get("/v1/vm-instances/" + vm, adminB).body().path("inventory").path("state").asText();
            assertThat(viaB).isEqualTo(viaA);
            assertThat(viaA).isIn("Running", "Stopped");
            assertThat(QemuProcess.running(vm)).as("QEMU of %s runs iff the API says Running", vm)
                    .isEqualTo(viaA.equals("Running"));
        }
        try (Connection c = GaleraCluster.node(3, db)) {
            for (String vm : vms) {
                assertThat(rows(c, "SELECT state FROM VmInstanceVO WHERE uuid = '" + vm + "'"))
                        .containsExactly(httpA.get("/v1/vm-instances/" + vm, adminA).body().path("inventory").path("state").asText());
            }
        }
    }

    private static void sleepNanos(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }
}
