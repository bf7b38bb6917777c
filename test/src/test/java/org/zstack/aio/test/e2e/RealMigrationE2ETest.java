package org.zstack.aio.test.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.agent.AgentSettings;
import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.agent.support.SecondLibvirt;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13 acceptance on real parts: REST API -> server (MariaDB) -> the SOURCE host's agent -> libvirt migrates the
 * domain from host A (the system libvirtd) to host B (the second libvirtd of bin/lib/setup-libvirt-b.sh), each
 * disk with the io mode decided for B. Every claim about QEMU is read from /proc/PID/cmdline of A's or B's QEMU.
 * kernel.io_uring_disabled=2 (restored in finally) makes io_uring impossible for any NEW QEMU, the destination's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealMigrationE2ETest {

    private static final Path IO_URING_DISABLED = Path.of("/proc/sys/kernel/io_uring_disabled");
    private static final Path B_RUN = SecondLibvirt.DIR.resolve("run/qemu");

    TestDatabase db;
    RunningServer server;
    KvmAgent agentB;
    Fixture f;
    Http http;
    String admin;
    String shared;
    String hostA;
    String hostB;
    String ioUringBefore;
    final List<String> vms = new ArrayList<>();

    @BeforeAll
    void boot() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        String noB = SecondLibvirt.ensure().orElse(null);
        RealComponents.require(noB == null, "the second libvirtd", noB + " (bin/lib/setup-libvirt-b.sh)");
        RealComponents.require(Files.isWritable(IO_URING_DISABLED), "a writable kernel.io_uring_disabled", "run as root");
        ioUringBefore = Files.readString(IO_URING_DISABLED).strip();
        db = TestDatabase.mariadb();
        // qemu+unix:// is A's libvirtd as an authenticated transport, so a migration back to A is allowed too
        server = RunningServer.start(db, Map.of("AIO_LIBVIRT_URI", "qemu+unix:///system"));
        agentB = KvmAgent.start(new AgentSettings("127.0.0.1", 0, SecondLibvirt.URI, Set.of(), B_RUN, null, 16,
                Path.of(Storage.dir("agent-b-data")), 1));
        f = new Fixture(server);
        http = f.http;
        admin = f.adminSession();
        // a path both hosts see (/var/tmp is shared with B's mount namespace): SharedMountPoint, contract §6
        shared = f.primaryStorage(admin, "smp", "SharedMountPoint", Storage.dir("mig-smp"));
        hostA = f.localHost(admin);
        hostB = f.host(admin, agentB.port(), agentB.enrollmentToken());
    }

    @AfterEach
    void cleanUp() throws Exception {
        Files.writeString(IO_URING_DISABLED, ioUringBefore);
        for (String vm : vms) {
            if ("Running".equals(vm(vm).path("state").asText())) {
                http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
            }
        }
        vms.clear();
        try (Connection c = db.connect()) {
            c.createStatement().executeUpdate("UPDATE GlobalConfigVO SET value = defaultValue");
        }
        reconnect(hostB); // B's facts as the kernel has them again
    }

    @AfterAll
    void shutdown() throws Exception {
        if (ioUringBefore != null) Files.writeString(IO_URING_DISABLED, ioUringBefore);
        if (server != null) server.close();
        if (agentB != null) agentB.close();
        if (db != null) db.close();
    }

    /**
     * io_uring on A; then the kernel forbids io_uring. With B's facts stale the server sends io_uring (the unchanged
     * XML): libvirt refuses, the VM stays on A, same QEMU. Reconnected, B decides native: the migration lands, B's
     * QEMU runs native, A's is gone, and the stored decisions name B. A disk hot-plugged afterwards is decided for B.
     */
    @Test
    void liveMigrationDecidesEveryDiskForTheDestinationHost() throws Exception {
        String vol = ioUringVolume("live");
        String vm = vm("live", vol);
        start(vm);
        String path = installPath(vol);
        QemuProcess onA = QemuProcess.of(vm);
        assertThat(onA.aio(path)).as("A's QEMU").isEqualTo("io_uring");
        assertThat(target(vm, hostB).path("ioModes").get(0).path("effective").asText()).isEqualTo("io_uring");
        JsonNode decisionOnA = stored(vol);

        Files.writeString(IO_URING_DISABLED, "2");
        Http.Response unchanged = migrate(vm, hostB);
        assertThat(unchanged.status()).as(unchanged.raw()).isEqualTo(503);
        assertThat(unchanged.body().path("error").path("description").asText())
                .contains("could not migrate to host").contains("libvirt could not migrate VM " + vm);
        assertThat(unchanged.body().path("error").path("details").asText()).contains("still runs on host " + hostA);
        assertThat(vm(vm).path("state").asText()).isEqualTo("Running");
        assertThat(vm(vm).path("hostUuid").asText()).isEqualTo(hostA);
        assertThat(QemuProcess.of(vm).pid()).as("same QEMU on A").isEqualTo(onA.pid());
        assertThat(stored(vol)).as("decisions unchanged").isEqualTo(decisionOnA);

        reconnect(hostB);
        JsonNode onB = target(vm, hostB).path("ioModes").get(0);
        assertThat(onB.path("volumeUuid").asText()).isEqualTo(vol);
        assertThat(onB.path("effective").asText()).isEqualTo("native");
        assertThat(onB.path("refused").asBoolean()).isFalse();
        assertThat(onB.path("reason").asText()).contains("io_uring_disabled is 2");

        long t0 = System.nanoTime();
        Http.Response moved = migrate(vm, hostB);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(moved.status()).as(moved.raw()).isEqualTo(200);
        System.out.println("migration through the API: " + ms + " ms");
        assertThat(moved.body().path("inventory").path("hostUuid").asText()).isEqualTo(hostB);
        assertThat(moved.body().path("inventory").path("state").asText()).isEqualTo("Running");
        assertThat(QemuProcess.of(B_RUN, vm).aio(path)).as("B's QEMU").isEqualTo("native");
        assertThat(Path.of("/proc/" + onA.pid())).as("A's QEMU gone").doesNotExist();
        assertThat(QemuProcess.running(vm)).as("no pid file left on A").isFalse();
        JsonNode d = stored(vol);
        assertThat(d.path("hostUuid").asText()).isEqualTo(hostB);
        assertThat(d.path("effective").asText()).isEqualTo("native");
        assertThat(d.path("appliedIo").asText()).isEqualTo("native");
        assertThat(d.path("reason").asText()).contains("io_uring_disabled is 2").contains("Decided for host").contains(hostB);
        assertThat(audits(vm)).anySatisfy(a -> {
            assertThat(a.path("oldValue").asText()).isEqualTo(hostA);
            assertThat(a.path("newValue").asText()).isEqualTo(hostB);
        });

        String metrics = http.get("/metrics", admin).raw();
        assertThat(metrics).containsPattern("aio_vm_migration_seconds_count\\{kind=\"live\",outcome=\"success\"[^}]*} [1-9]")
                .containsPattern("aio_vm_migration_seconds_count\\{kind=\"live\",outcome=\"failure\"[^}]*} [1-9]");

        String data = ioUringVolume("hotplug");
        Http.Response plugged = http.post("/v1/volumes/" + data + "/vm-instances/" + vm, admin, "{\"params\":{}}");
        assertThat(plugged.status()).as(plugged.raw()).isEqualTo(200);
        assertThat(plugged.body().path("ioModeDecision").path("hostUuid").asText()).isEqualTo(hostB);
        assertThat(plugged.body().path("ioModeDecision").path("effective").asText()).isEqualTo("native");
        assertThat(plugged.body().path("ioModeDecision").path("appliedIo").asText()).isEqualTo("native");
        // a hot-plugged disk is added over QMP, so it is not on QEMU's command line: B's libvirtd shows the live driver
        assertThat(liveDriverIo(vm, installPath(data))).as("hot-plugged disk in B's live domain").isEqualTo("native");
    }

    @Test
    void withFailPolicyADiskTheDestinationCannotRunIs409AndNothingMoves() throws Exception {
        String vol = ioUringVolume("fail");
        String vm = vm("fail", vol);
        start(vm);
        long pid = QemuProcess.of(vm).pid();
        JsonNode before = stored(vol);
        Files.writeString(IO_URING_DISABLED, "2");
        reconnect(hostB);
        global("vm.ioMode.onUnsatisfied", "fail");
        assertThat(target(vm, hostB).path("migrationBlocker").asText()).contains(vol).contains(hostB).contains("io_uring-sysctl");

        Http.Response r = migrate(vm, hostB);

        assertThat(r.status()).as(r.raw()).isEqualTo(409);
        assertThat(r.errorCode()).isEqualTo("AIO.1301");
        assertThat(r.body().path("error").path("description").asText()).contains(vol).contains(hostB).contains("io_uring-sysctl");
        assertThat(QemuProcess.of(vm).pid()).as("A's QEMU keeps its pid").isEqualTo(pid);
        assertThat(SecondLibvirt.qemuPid(vm)).as("nothing started on B").isEmpty();
        assertThat(vm(vm).path("hostUuid").asText()).isEqualTo(hostA);
        assertThat(vm(vm).path("state").asText()).isEqualTo("Running");
        assertThat(stored(vol)).isEqualTo(before);
    }

    /** A stopped VM moves by changing host (here through ZStack's job protocol); its next start decides for B. */
    @Test
    void coldMigrationThenStartDecidesWithTheNewHost() throws Exception {
        String vol = ioUringVolume("cold");
        String vm = vm("cold", vol);
        Files.writeString(IO_URING_DISABLED, "2");
        reconnect(hostB);
        String job = UUID.randomUUID().toString().replace("-", "");
        Http.Response accepted = http.call("PUT", "/v1/vm-instances/" + vm + "/actions", admin,
                "{\"migrateVm\":{\"hostUuid\":\"" + hostB + "\"}}", Map.of("X-Job-UUID", job));
        assertThat(accepted.status()).as(accepted.raw()).isEqualTo(202);
        Http.Response done = poll(job);
        assertThat(done.status()).as(done.raw()).isEqualTo(200);
        assertThat(done.body().path("inventory").path("hostUuid").asText()).isEqualTo(hostB);
        assertThat(done.body().path("inventory").path("state").asText()).isEqualTo("Stopped");
        assertThat(stored(vol).isNull()).as("nothing decided before the start").isTrue();

        JsonNode d = start(vm).path("ioModeDecisions").get(0);
        assertThat(d.path("hostUuid").asText()).isEqualTo(hostB);
        assertThat(d.path("effective").asText()).isEqualTo("native");
        assertThat(QemuProcess.of(B_RUN, vm).aio(installPath(vol))).isEqualTo("native");
        assertThat(QemuProcess.running(vm)).as("nothing on A").isFalse();
    }

    /**
     * Back and forth between A and B through the API, timed (docs/performance.md §7; -Daio.migration.runs=N, default
     * 2 in CI): every run lands where asked with a QEMU there and none left on the other host.
     */
    @Test
    void migrationsBackAndForthLandEveryTime() throws Exception {
        int runs = Integer.getInteger("aio.migration.runs", 2);
        String vol = ioUringVolume("timing");
        String vm = vm("timing", vol);
        start(vm);
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            String to = i % 2 == 0 ? hostB : hostA;
            long t0 = System.nanoTime();
            Http.Response r = migrate(vm, to);
            millis.add((System.nanoTime() - t0) / 1_000_000);
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(r.body().path("inventory").path("hostUuid").asText()).isEqualTo(to);
            boolean onB = to.equals(hostB);
            assertThat(QemuProcess.of(onB ? B_RUN : Path.of("/run/libvirt/qemu"), vm).aio(installPath(vol))).isEqualTo("io_uring");
            assertThat(onB ? QemuProcess.running(vm) : SecondLibvirt.qemuPid(vm).isPresent()).as("left on the source").isFalse();
        }
        System.out.println("migration through the API, " + runs + " runs (ms): " + millis);
    }

    @Test
    void badInputIsA4xxAndChangesNothing() throws Exception {
        String vm = vm("bad", ioUringVolume("bad"));
        String tenant = f.tenant(admin, "mig-tenant");
        List<Object[]> cases = List.of(
                new Object[]{"{\"migrateVm\":{}}", 400, "hostUuid"},
                new Object[]{"{\"migrateVm\":{\"hostUuid\":7}}", 400, "hostUuid"},
                new Object[]{"{\"migrateVm\":{\"hostUuid\":\"" + hostA + "\"}}", 400, "already on host"},
                new Object[]{"{\"migrateVm\":{\"hostUuid\":\"" + "0".repeat(32) + "\"}}", 404, "0".repeat(32)},
                new Object[]{"{\"migrateVm\":{\"hostUuid\":\"nope\"}}", 400, "host"});
        for (Object[] c : cases) {
            Http.Response r = http.put("/v1/vm-instances/" + vm + "/actions", admin, (String) c[0]);
            assertThat(r.status()).as(c[0] + ": " + r.raw()).isEqualTo(c[1]);
            assertThat(r.body().path("error").path("description").asText()).as(r.raw()).contains((String) c[2]);
            assertThat(r.body().path("error").path("details").asText()).as("a sentence saying what to do").isNotBlank();
        }
        Http.Response foreign = http.put("/v1/vm-instances/" + vm + "/actions", tenant,
                "{\"migrateVm\":{\"hostUuid\":\"" + hostB + "\"}}");
        assertThat(foreign.status()).as(foreign.raw()).isEqualTo(403);
        assertThat(http.get("/v1/vm-instances/" + vm + "/migration-target-hosts", tenant).status()).isEqualTo(403);

        try (Connection c = db.connect()) { // B as the tracker would mark it when its agent stops answering
            c.createStatement().executeUpdate("UPDATE HostVO SET status = 'Disconnected' WHERE uuid = '" + hostB + "'");
        }
        Http.Response disconnected = migrate(vm, hostB);
        reconnect(hostB);
        assertThat(disconnected.status()).as(disconnected.raw()).isEqualTo(409);
        assertThat(disconnected.body().path("error").path("description").asText()).contains(hostB).contains("Disconnected");
        assertThat(vm(vm).path("hostUuid").asText()).isEqualTo(hostA);
        assertThat(vm(vm).path("state").asText()).isEqualTo("Stopped");
    }

    // ---- helpers ----

    /** The io attribute of the disk at {@code path} in the running domain on B, as B's libvirtd reports it. */
    static String liveDriverIo(String vm, String path) throws Exception {
        org.libvirt.Connect b = new org.libvirt.Connect(SecondLibvirt.URI);
        try {
            String xml = b.domainLookupByName(vm).getXMLDesc(0);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("<driver [^>]*?io='([a-z_]+)'[^>]*/>\\s*<source file='"
                    + java.util.regex.Pattern.quote(path) + "'").matcher(xml);
            return m.find() ? m.group(1) : "no io attribute for " + path + " in " + xml;
        } finally {
            b.close();
        }
    }

    String ioUringVolume(String name) {
        String vol = f.volume(admin, name, "qcow2", "full", shared, hostA, 16L << 20);
        Http.Response r = http.put("/v1/resource-configurations/kvm/vm.ioMode/" + vol + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"io_uring\"}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return vol;
    }

    String vm(String name, String volume) {
        String vm = f.vm(admin, "mig-" + name, hostA, List.of(volume));
        vms.add(vm);
        return vm;
    }

    JsonNode vm(String vm) {
        return http.get("/v1/vm-instances/" + vm, admin).body().path("inventory");
    }

    JsonNode start(String vm) {
        Http.Response r = http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    Http.Response migrate(String vm, String host) {
        return http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"migrateVm\":{\"hostUuid\":\"" + host + "\"}}");
    }

    JsonNode target(String vm, String host) {
        Http.Response r = http.get("/v1/vm-instances/" + vm + "/migration-target-hosts", admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        for (JsonNode h : r.body().path("inventories")) if (h.path("uuid").asText().equals(host)) return h;
        throw new AssertionError("host " + host + " is not a migration target: " + r.raw());
    }

    void reconnect(String host) {
        Http.Response r = http.put("/v1/hosts/" + host + "/actions", admin, "{\"reconnectHost\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }

    Http.Response poll(String job) throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            Http.Response r = http.get("/v1/api-jobs/" + job, admin);
            if (r.status() != 202) return r;
            Thread.sleep(100);
        }
        throw new AssertionError("job " + job + " still running after 60 s");
    }

    JsonNode stored(String volume) {
        return http.get("/v1/volumes/" + volume, admin).body().path("inventory").path("ioModeDecision");
    }

    String installPath(String volume) {
        return http.get("/v1/volumes/" + volume, admin).body().path("inventory").path("installPath").asText();
    }

    List<JsonNode> audits(String vm) {
        Http.Response r = http.get("/v1/audits?q=action=MigrateVm&q=resourceUuid=" + vm, admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        List<JsonNode> out = new ArrayList<>();
        r.body().path("inventories").forEach(out::add);
        return out;
    }

    void global(String name, String value) {
        Http.Response r = http.put("/v1/global-configurations/kvm/" + name + "/actions", admin,
                "{\"updateGlobalConfig\":{\"value\":\"" + value + "\"}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }
}
