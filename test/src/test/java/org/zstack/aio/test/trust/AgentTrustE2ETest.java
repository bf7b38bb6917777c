package org.zstack.aio.test.trust;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.agent.AgentSettings;
import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.HostBenchCmd;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.VmAttachVolumeCmd;
import org.zstack.aio.agent.api.VmStartCmd;
import org.zstack.aio.agent.api.VmStopCmd;
import org.zstack.aio.agent.api.VolumeCreateCmd;
import org.zstack.aio.agent.api.trust.EnrollmentToken;
import org.zstack.aio.agent.trust.AgentIdentity;
import org.zstack.aio.launcher.EmbeddedAgent;
import org.zstack.aio.test.support.DirectAgent;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 10's acceptance over real HTTPS against the server's real agent on real libvirtd + QEMU: enrollment,
 * 401 for every agent path without credentials, another agent's token refused, a virsh domain left alone,
 * paths outside the registered storage refused, long creates not delaying VM starts, rotation without
 * restarting VMs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AgentTrustE2ETest {

    private static final long MEM = 64L << 20;
    TestDatabase db;
    RunningServer server;
    Fixture f;
    Http http;
    String admin;
    String localDir;
    String local;
    String host;

    @BeforeAll
    void boot() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        db = TestDatabase.h2();
        server = RunningServer.start(db, Map.of("AIO_LIBVIRT_URI", "qemu:///system"));
        f = new Fixture(server);
        http = f.http;
        admin = f.adminSession();
        localDir = Storage.dir("trust-local");
        local = f.primaryStorage(admin, "local", "LocalStorage", localDir);
        host = f.localHost(admin);
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (db != null) db.close();
    }

    // ---- enrollment at host add ----

    @Test
    void hostAddRefusesMissingMalformedTruncatedExpiredAndForeignTokensAndStoresNothing() throws Exception {
        String good = server.agentEnrollment();
        EnrollmentToken t = EnrollmentToken.parse(good);
        String expired = new EnrollmentToken(t.certSha256(), t.secret(), Instant.now().minusSeconds(60)).encode();
        String wrongSecret = new EnrollmentToken(t.certSha256(), new byte[32], null).encode();
        try (KvmAgent other = KvmAgent.start(AgentSettings.defaults().withBindAddress("127.0.0.1").withPort(0)
                .withLibvirtUri("test:///default").withDataDir(Path.of(Storage.dir("other-agent"))))) {
            Map<String, String> cases = new java.util.LinkedHashMap<>();
            cases.put("missing", null);
            cases.put("malformed", "not a token");
            cases.put("with a space after it", good + " ");
            cases.put("truncated", good.substring(0, good.length() - 12));
            cases.put("expired", expired);
            cases.put("another agent's token", other.enrollmentToken());
            cases.put("the right certificate with another secret", wrongSecret);
            for (var c : cases.entrySet()) {
                String token = c.getValue() == null ? "" : ",\"agentEnrollment\":\"" + c.getValue() + "\"";
                Http.Response r = http.post("/v1/hosts/kvm", admin, "{\"params\":{\"name\":\"bad\",\"managementIp\":\"127.0.0.1\","
                        + "\"agentPort\":" + server.agentPort() + token + "}}");
                assertThat(r.status()).as(c.getKey() + ": " + r.raw()).isEqualTo(400);
                assertThat(r.body().path("error").path("description").asText()).as(c.getKey()).isNotBlank();
                assertThat(r.body().path("error").path("details").asText()).as(c.getKey()).contains("bin/aio-agent enrollment");
                assertThat(r.raw()).as("no secret in the answer").doesNotContain(secretText(t));
            }
            assertThat(http.get("/v1/hosts", admin).body().path("inventories")).as("nothing stored").hasSize(1);
        }
        // the stored host: no token or secret in the API, the database holds the secret sealed only
        Http.Response h = http.get("/v1/hosts/" + host, admin);
        assertThat(h.raw()).doesNotContain(good).doesNotContain(secretText(t)).doesNotContain(EnrollmentToken.PREFIX);
        try (var c = db.connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT certSha256, secret FROM HostAgentCredentialVO WHERE hostUuid = '" + host + "'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo(t.certSha256Hex());
            assertThat(rs.getString(2)).doesNotContain(secretText(t)).doesNotContain(Base64.getEncoder().encodeToString(t.secret()));
        }
    }

    // ---- the agent itself, reached directly as an attacker would ----

    @Test
    void everyAgentPathWithoutCredentialsIs401AndCreatesNoFileDomainOrProcess() throws Exception {
        String vm = "trust-anon-" + UUID.randomUUID().toString().substring(0, 8);
        String vol = "anon" + UUID.randomUUID().toString().substring(0, 8);
        String image = localDir + "/" + vol + ".qcow2";
        DirectAgent anonymous = new DirectAgent(server.agentPort(), server.agentEnrollment(), false);
        List<Object[]> calls = List.of(
                new Object[]{AgentPaths.PING, null},
                new Object[]{AgentPaths.HOST_CONNECT, new HostConnectCmd("h", List.of("/"))},
                new Object[]{AgentPaths.HOST_FACT, new HostConnectCmd("h", List.of("/"))},
                new Object[]{AgentPaths.VOLUME_CREATE, new VolumeCreateCmd(vol, "LocalStorage", localDir, "qcow2", "full", 16L << 20)},
                new Object[]{AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of(disk("/etc/shadow")))},
                new Object[]{AgentPaths.VM_STOP, new VmStopCmd(vm)},
                new Object[]{AgentPaths.VM_ATTACH_VOLUME, new VmAttachVolumeCmd(vm, disk("/etc/shadow"))},
                new Object[]{AgentPaths.HOST_BENCH, new HostBenchCmd(localDir, 1)},
                new Object[]{AgentPaths.HOST_BENCH_CANCEL, null},
                new Object[]{"/vm/reboot", null});
        for (Object[] call : calls) {
            DirectAgent.Answer a = anonymous.post((String) call[0], call[1]);
            assertThat(a.status()).as(call[0] + " " + a.raw()).isEqualTo(401);
        }
        Thread.sleep(500); // anything started asynchronously would show by now
        assertThat(Path.of(image)).doesNotExist();
        try (Stream<Path> files = Files.list(Path.of(localDir))) {
            assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith(".aio-bench"));
        }
        assertThat(QemuProcess.defined(vm)).isFalse();
        assertThat(QemuProcess.running(vm)).isFalse();
    }

    @Test
    void aDomainCreatedWithVirshCannotBeStoppedReplacedOrChangedThroughTheAgent() throws Exception {
        String name = "aio-foreign-" + UUID.randomUUID().toString().substring(0, 8);
        Path xml = Files.createTempFile("foreign-", ".xml");
        Files.writeString(xml, "<domain type='qemu'><name>" + name + "</name><memory unit='MiB'>32</memory><vcpu>1</vcpu>"
                + "<os><type arch='x86_64' machine='pc'>hvm</type></os><devices><memballoon model='none'/></devices></domain>");
        virsh("create", xml.toString());
        try {
            assertThat(QemuProcess.running(name)).isTrue();
            long pid = QemuProcess.of(name).pid();
            DirectAgent enrolled = new DirectAgent(server.agentPort(), server.agentEnrollment(), true);
            DirectAgent.Answer stop = enrolled.post(AgentPaths.VM_STOP, new VmStopCmd(name));
            assertThat(stop.status()).as(stop.raw()).isEqualTo(403);
            assertThat(stop.json().path("error").asText()).contains("not created by the aio agent");
            DirectAgent.Answer start = enrolled.post(AgentPaths.VM_START, new VmStartCmd(name, name, MEM, 1, List.of()));
            assertThat(start.status()).as(start.raw()).isEqualTo(403);
            String vol = localDir + "/" + name + ".qcow2";
            DirectAgent.Answer attach = enrolled.post(AgentPaths.VM_ATTACH_VOLUME, new VmAttachVolumeCmd(name, disk(vol)));
            assertThat(attach.status()).as(attach.raw()).isEqualTo(403);
            assertThat(QemuProcess.running(name)).as("still running").isTrue();
            assertThat(QemuProcess.of(name).pid()).as("the same QEMU").isEqualTo(pid);
        } finally {
            virsh("destroy", name);
            Files.deleteIfExists(xml);
        }
    }

    @Test
    void pathsOutsideTheRegisteredStorageAreRefusedIncludingDotDotAndSymlinks() throws Exception {
        DirectAgent enrolled = new DirectAgent(server.agentPort(), server.agentEnrollment(), true);
        Path outside = Path.of(Storage.dir("trust-outside"));
        Path link = Path.of(localDir, "escape-" + UUID.randomUUID().toString().substring(0, 6));
        Files.createSymbolicLink(link, outside);
        try {
            String vol = "out" + UUID.randomUUID().toString().substring(0, 8);
            for (String dir : List.of(outside.toString(), localDir + "/../" + outside.getFileName(), link.toString())) {
                DirectAgent.Answer a = enrolled.post(AgentPaths.VOLUME_CREATE,
                        new VolumeCreateCmd(vol, "LocalStorage", dir, "qcow2", "none", 16L << 20));
                assertThat(a.status()).as(dir + ": " + a.raw()).isEqualTo(403);
                DirectAgent.Answer b = enrolled.post(AgentPaths.HOST_BENCH, new HostBenchCmd(dir, 1));
                assertThat(b.status()).as(dir + ": " + b.raw()).isEqualTo(403);
            }
            try (Stream<Path> files = Files.list(outside)) {
                assertThat(files).as("nothing written outside").isEmpty();
            }
            String vm = "trust-out-" + UUID.randomUUID().toString().substring(0, 8);
            for (String disk : List.of("/etc/shadow", "/dev/vda", link + "/x.qcow2", localDir + "/../x.qcow2")) {
                DirectAgent.Answer a = enrolled.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of(disk(disk))));
                assertThat(a.status()).as(disk + ": " + a.raw()).isEqualTo(403);
            }
            assertThat(QemuProcess.defined(vm)).isFalse();
            // through the API: a primary storage on a system path is refused when the agent is asked to use it
            String etc = f.primaryStorage(admin, "etc", "LocalStorage", "/etc");
            Http.Response r = http.post("/v1/volumes/data", admin, "{\"params\":{\"name\":\"x\",\"size\":1048576,\"format\":\"raw\","
                    + "\"preallocation\":\"none\",\"primaryStorageUuid\":\"" + etc + "\",\"hostUuid\":\"" + host + "\"}}");
            assertThat(r.status()).as(r.raw()).isEqualTo(400);
            assertThat(r.body().path("error").path("description").asText()).contains("outside the storage registered");
            // a reconnect reports the refusal in the host's storage facts (and probes nothing in /etc)
            Http.Response re = http.put("/v1/hosts/" + host + "/actions", admin, "{\"reconnectHost\":{}}");
            assertThat(re.status()).as(re.raw()).isEqualTo(200);
            assertThat(re.raw()).contains("refusing to use /etc as storage");
        } finally {
            Files.deleteIfExists(link);
        }
    }

    // ---- long work never starves VM start/stop ----

    @Test
    void sixteenConcurrentOneGibFullCreatesDoNotDelayAVmStartOrStopByASecond() throws Exception {
        String vm = f.vm(admin, "quick", host, List.of(f.volume(admin, "quick", "qcow2", "full", local, host)));
        List<Long> idleStarts = new ArrayList<>();
        List<Long> idleStops = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            idleStarts.add(timed(() -> action(vm, "startVmInstance")));
            idleStops.add(timed(() -> action(vm, "stopVmInstance")));
        }
        long idleStart = median(idleStarts);
        long idleStop = median(idleStops);

        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<Http.Response>> creates = new ArrayList<>();
        try {
            for (int i = 0; i < 16; i++) {
                String name = "big-" + i;
                creates.add(pool.submit(() -> http.post("/v1/volumes/data", admin, "{\"params\":{\"name\":\"" + name
                        + "\",\"size\":1073741824,\"format\":\"raw\",\"preallocation\":\"full\",\"primaryStorageUuid\":\""
                        + local + "\",\"hostUuid\":\"" + host + "\"}}")));
            }
            waitForImagesBeingWritten(2);
            long busyStart = timed(() -> action(vm, "startVmInstance"));
            long busyStop = timed(() -> action(vm, "stopVmInstance"));
            long stillRunning = creates.stream().filter(c -> !c.isDone()).count();
            System.out.printf("VM start idle %d ms (median of 3: %s), during 16 x 1 GiB full creates %d ms; stop idle %d ms (%s),"
                    + " busy %d ms; creates still in flight after both: %d%n", idleStart, idleStarts, busyStart, idleStop,
                    idleStops, busyStop, stillRunning);
            assertThat(stillRunning).as("the creates were still in flight while the VM started and stopped").isGreaterThan(0);
            assertThat(busyStart - idleStart).as("start delay (ms)").isLessThan(1000);
            assertThat(busyStop - idleStop).as("stop delay (ms)").isLessThan(1000);
            for (Future<Http.Response> c : creates) {
                Http.Response r = c.get(10, TimeUnit.MINUTES);
                assertThat(r.status()).as(r.raw()).isIn(200, 400); // 400: the file system could not hold all 16
                if (r.status() == 400) {
                    assertThat(r.body().path("error").path("description").asText()).contains("not enough free space");
                }
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.MINUTES);
            try (Stream<Path> files = Files.list(Path.of(localDir))) {
                for (Path p : files.filter(p -> {
                    try {
                        return Files.size(p) >= (1L << 30);
                    } catch (java.io.IOException e) {
                        return false;
                    }
                }).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    // ---- rotation ----

    @Test
    void rotatingTheAgentSecretLocksTheServerOutUntilReEnrolledAndRunningVmsKeepRunning() throws Exception {
        String vm = f.vm(admin, "rotate", host, List.of(f.volume(admin, "rotate", "qcow2", "full", local, host)));
        assertThat(action(vm, "startVmInstance").status()).isEqualTo(200);
        long pid = QemuProcess.of(vm).pid();
        String old = server.agentEnrollment();
        String fresh = AgentIdentity.rotate(db.dataDir().resolve(EmbeddedAgent.DATA_SUBDIR));
        try {
            Http.Response stop = action(vm, "stopVmInstance");
            assertThat(stop.status()).as(stop.raw()).isEqualTo(503);
            assertThat(stop.body().path("error").path("details").asText()).contains("reconnectHost");
            assertThat(QemuProcess.of(vm).pid()).as("the VM was not touched").isEqualTo(pid);
            assertThat(state(vm)).isEqualTo("Running");

            Http.Response withOld = reconnect(old);
            assertThat(withOld.status()).as(withOld.raw()).isEqualTo(400);
            Http.Response withNew = reconnect(fresh);
            assertThat(withNew.status()).as(withNew.raw()).isEqualTo(200);
            assertThat(withNew.raw()).doesNotContain(fresh);
            assertThat(QemuProcess.of(vm).pid()).as("re-enrolling does not restart VMs").isEqualTo(pid);
        } finally {
            if ("Running".equals(state(vm)) && action(vm, "stopVmInstance").status() != 200) {
                reconnect(server.agentEnrollment());
                action(vm, "stopVmInstance");
            }
        }
        assertThat(QemuProcess.running(vm)).isFalse();
    }

    // ---- helpers ----

    private Http.Response reconnect(String token) {
        return http.put("/v1/hosts/" + host + "/actions", admin, "{\"reconnectHost\":{\"agentEnrollment\":\"" + token + "\"}}");
    }

    private Http.Response action(String vm, String action) {
        return http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"" + action + "\":{}}");
    }

    private String state(String vm) {
        return http.get("/v1/vm-instances/" + vm, admin).body().path("inventory").path("state").asText();
    }

    private long timed(java.util.function.Supplier<Http.Response> call) {
        long t0 = System.nanoTime();
        Http.Response r = call.get();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return ms;
    }

    private static long median(List<Long> v) {
        List<Long> s = v.stream().sorted().toList();
        return s.get(s.size() / 2);
    }

    /** Waits until qemu-img is writing at least n images in the storage directory. */
    private void waitForImagesBeingWritten(int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            try (Stream<Path> files = Files.list(Path.of(localDir))) {
                if (files.filter(p -> p.getFileName().toString().endsWith(".raw")).count() >= n) return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no image creation started within 60 s");
    }

    private static DiskTO disk(String path) {
        return new DiskTO("vol-" + UUID.randomUUID().toString().substring(0, 6), path, "qcow2", "file", 0, "none", List.of());
    }

    private static String secretText(EnrollmentToken t) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(t.secret());
    }

    private static void virsh(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("virsh", "-c", "qemu:///system"));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) throw new AssertionError(String.join(" ", cmd) + " failed: " + out);
    }

}
