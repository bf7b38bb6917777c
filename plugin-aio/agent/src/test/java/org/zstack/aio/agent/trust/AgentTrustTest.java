package org.zstack.aio.agent.trust;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.libvirt.Connect;
import org.libvirt.Domain;
import org.libvirt.LibvirtException;
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
import org.zstack.aio.agent.support.AgentClient;
import org.zstack.aio.agent.support.TestAgents;
import org.zstack.aio.agent.support.TestDriverDomains;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The agent's trust rules over real HTTPS (libvirt's test driver, so it runs everywhere; the same rules against
 * real libvirtd are in the test module's AgentTrustE2ETest): enrollment credentials, 401 for every path
 * without them, another agent's token refused, confinement to registered storage and to its own domains.
 */
class AgentTrustTest {

    private static final long MEM = 64L << 20;
    private static KvmAgent agent;
    private static KvmAgent other;
    private static AgentClient client;
    private static Path root;
    private static Connect libvirt;

    @BeforeAll
    static void start() throws Exception {
        agent = KvmAgent.start(TestAgents.settings().withLibvirtUri("test:///default"));
        other = KvmAgent.start(TestAgents.settings().withLibvirtUri("test:///default"));
        client = new AgentClient(agent);
        root = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "trust-root-");
        assertThat(client.post(AgentPaths.HOST_CONNECT, new HostConnectCmd("h", List.of(root.toString()))).status())
                .isEqualTo(200);
        libvirt = new Connect("test:///default");
    }

    @AfterAll
    static void stop() throws LibvirtException {
        agent.close();
        other.close();
        libvirt.close();
    }

    @Test
    void credentialsAreCreatedPrivateAndTheTokenFileMatchesTheAgent() throws IOException {
        Path dir = agent.settings().dataDir();
        for (String f : List.of(AgentIdentity.KEY_FILE, AgentIdentity.SECRET_FILE, AgentIdentity.TOKEN_FILE)) {
            assertThat(Files.getPosixFilePermissions(dir.resolve(f))).as(f)
                    .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        }
        String line = Files.readString(dir.resolve(AgentIdentity.TOKEN_FILE));
        assertThat(line).endsWith("\n").hasLineCount(1);
        assertThat(line.strip()).isEqualTo(agent.enrollmentToken());
        // the agent serves the certificate the token pins (the handshake of an enrolled client succeeds)
        assertThat(client.postRaw(AgentPaths.PING, "").status()).isEqualTo(200);
        // a second start with the same data dir keeps the identity
        try (KvmAgent again = KvmAgent.start(TestAgents.settings().withLibvirtUri("test:///default").withDataDir(dir))) {
            assertThat(again.enrollmentToken()).isEqualTo(agent.enrollmentToken());
        }
    }

    @Test
    void everyPathWithoutCredentialsIs401AndNothingIsCreated() throws Exception {
        String vm = "trust-" + UUID.randomUUID().toString().substring(0, 8);
        String vol = "vol-" + UUID.randomUUID().toString().substring(0, 8);
        AgentClient anonymous = client.withoutCredentials(agent.enrollmentToken());
        AgentClient wrongSecret = new AgentClient(agent.baseUri(), withSecretOf(agent.enrollmentToken(), other.enrollmentToken()));
        for (AgentClient c : List.of(anonymous, wrongSecret)) {
            List<Object[]> calls = List.of(
                    new Object[]{AgentPaths.PING, null},
                    new Object[]{AgentPaths.HOST_CONNECT, new HostConnectCmd("h", List.of("/var/tmp"))},
                    new Object[]{AgentPaths.HOST_FACT, new HostConnectCmd("h", List.of("/var/tmp"))},
                    new Object[]{AgentPaths.VOLUME_CREATE, new VolumeCreateCmd(vol, "LocalStorage", root.toString(), "raw", "none", 1 << 20)},
                    new Object[]{AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of())},
                    new Object[]{AgentPaths.VM_STOP, new VmStopCmd(vm)},
                    new Object[]{AgentPaths.VM_ATTACH_VOLUME, new VmAttachVolumeCmd(vm, disk(root.resolve("x.raw").toString()))},
                    new Object[]{AgentPaths.HOST_BENCH, new HostBenchCmd(root.toString(), 1)},
                    new Object[]{AgentPaths.HOST_BENCH_CANCEL, null},
                    new Object[]{"/no/such/path", null});
            for (Object[] call : calls) {
                AgentClient.Answer a = call[1] == null ? c.postRaw((String) call[0], "") : c.post((String) call[0], call[1]);
                assertThat(a.status()).as(call[0] + " " + a.body()).isEqualTo(401);
                assertThat(a.json().path("error").asText()).contains("enrolled");
            }
            assertThat(c.get(AgentPaths.PING).status()).isEqualTo(401);
        }
        try (Stream<Path> files = Files.list(root)) {
            assertThat(files).as("no image was created").isEmpty();
        }
        assertThat(defined(vm)).as("no domain was defined").isFalse();
    }

    @Test
    void aBigBodyWithoutCredentialsIsAnswered401WithoutBeingRead() {
        String big = "{\"vmUuid\":\"" + "x".repeat(32 << 20) + "\"}"; // 32 MiB
        AgentClient.Answer a;
        try {
            a = client.withoutCredentials(agent.enrollmentToken()).postRaw(AgentPaths.VM_START, big);
        } catch (AssertionError e) {
            // the agent may close the connection before the client finished sending: also a refusal
            assertThat(e.getMessage()).contains("agent unreachable");
            return;
        }
        assertThat(a.status()).isEqualTo(401);
    }

    @Test
    void anotherAgentsTokenIsRefused() {
        // pinned to the other agent's certificate: the TLS handshake with this agent fails, nothing is sent
        AgentClient stolen = new AgentClient(agent.baseUri(), other.enrollmentToken());
        assertThatThrownBy(() -> stolen.postRaw(AgentPaths.PING, "")).hasMessageContaining("agent unreachable")
                .hasStackTraceContaining("not the enrolled one");
        // the right certificate but the other agent's secret: 401
        AgentClient mixed = new AgentClient(agent.baseUri(), withSecretOf(agent.enrollmentToken(), other.enrollmentToken()));
        assertThat(mixed.postRaw(AgentPaths.PING, "").status()).isEqualTo(401);
    }

    @Test
    void rotatingTheSecretRefusesTheOldTokenAtOnceAndAcceptsTheNewOne() {
        try (KvmAgent a = KvmAgent.start(TestAgents.settings().withLibvirtUri("test:///default"))) {
            String old = a.enrollmentToken();
            assertThat(new AgentClient(a.baseUri(), old).postRaw(AgentPaths.PING, "").status()).isEqualTo(200);
            String fresh = AgentIdentity.rotate(a.settings().dataDir());
            assertThat(fresh).isNotEqualTo(old);
            assertThat(EnrollmentToken.parse(fresh).certSha256()).as("same certificate").isEqualTo(EnrollmentToken.parse(old).certSha256());
            assertThat(new AgentClient(a.baseUri(), old).postRaw(AgentPaths.PING, "").status()).isEqualTo(401);
            assertThat(new AgentClient(a.baseUri(), fresh).postRaw(AgentPaths.PING, "").status()).isEqualTo(200);
            assertThat(a.enrollmentToken()).isEqualTo(fresh);
        }
    }

    @Test
    void pathsOutsideTheRegisteredStorageAreRefused() throws IOException, LibvirtException {
        Path outside = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "outside-");
        Path link = root.resolve("escape");
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, outside);
        String vol = "vol-" + UUID.randomUUID().toString().substring(0, 8);
        for (String path : List.of(outside.toString(), root + "/../" + outside.getFileName(), link.toString(),
                link + "/deeper", "relative/dir")) {
            AgentClient.Answer a = client.post(AgentPaths.VOLUME_CREATE, new VolumeCreateCmd(vol, "LocalStorage", path, "raw", "none", 1 << 20));
            assertThat(a.status()).as(path + ": " + a.body()).isIn(400, 403);
            assertThat(a.json().path("error").asText()).as(path).containsAnyOf("outside the storage", "segment", "not an absolute path");
            AgentClient.Answer b = client.post(AgentPaths.HOST_BENCH, new HostBenchCmd(path, 1));
            assertThat(b.status()).as(path).isIn(400, 403);
        }
        try (Stream<Path> files = Files.list(outside)) {
            assertThat(files).isEmpty();
        }
        String vm = "trust-" + UUID.randomUUID().toString().substring(0, 8);
        for (String disk : List.of("/etc/shadow", "/dev/sda", link + "/x.qcow2", root + "/../x.qcow2", root.toString())) {
            AgentClient.Answer a = client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of(disk(disk))));
            assertThat(a.status()).as(disk + ": " + a.body()).isEqualTo(403);
        }
        assertThat(client.post(AgentPaths.VM_ATTACH_VOLUME, new VmAttachVolumeCmd(vm, disk("/etc/shadow"))).status()).isEqualTo(403);
        assertThat(defined(vm)).isFalse();
        // inside the root is fine (the test driver does not open the file)
        AgentClient.Answer ok = client.post(AgentPaths.VM_START, new VmStartCmd(vm, vm, MEM, 1, List.of(disk(root + "/in.qcow2"))));
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(client.post(AgentPaths.VM_STOP, new VmStopCmd(vm)).status()).isEqualTo(200);
    }

    @Test
    void systemDirectoriesAreNeitherRegisteredAsStorageNorProbed() throws IOException {
        for (String p : List.of("/", "/etc", "/etc/ssh", "/var", "/dev", "/dev/sda/x", "/usr/lib")) {
            AgentClient.Answer a = client.post(AgentPaths.HOST_CONNECT, new HostConnectCmd("h", List.of(p, root.toString())));
            assertThat(a.status()).as(p + ": " + a.body()).isEqualTo(200);
            var facts = a.as(org.zstack.aio.agent.api.HostFactsRsp.class).storagePaths();
            assertThat(facts).anySatisfy(f -> {
                assertThat(f.path()).isEqualTo(p);
                assertThat(f.error()).contains("refusing to use");
            });
            AgentClient.Answer create = client.post(AgentPaths.VOLUME_CREATE,
                    new VolumeCreateCmd("sys", "LocalStorage", p, "raw", "none", 1 << 20));
            assertThat(create.status()).as(p + ": " + create.body()).isEqualTo(403);
        }
        try (Stream<Path> etc = Files.list(Path.of("/etc"))) {
            assertThat(etc.map(f -> f.getFileName().toString())).as("the probe wrote nothing in /etc").noneMatch(n -> n.startsWith(".aio-"));
        }
        assertThat(client.post(AgentPaths.HOST_CONNECT, new HostConnectCmd("h", List.of("/dev/vg0"))).as(
                org.zstack.aio.agent.api.HostFactsRsp.class).storagePaths().get(0).error()).doesNotContain("refusing");
    }

    @Test
    void domainsTheAgentDidNotCreateAreNeitherStoppedNorReplacedNorChanged() throws LibvirtException {
        String name = "foreign-" + UUID.randomUUID().toString().substring(0, 8);
        Domain d = libvirt.domainCreateXML("<domain type='test'><name>" + name + "</name><memory>65536</memory>"
                + "<os><type>hvm</type></os></domain>", 0);
        try {
            AgentClient.Answer stop = client.post(AgentPaths.VM_STOP, new VmStopCmd(name));
            assertThat(stop.status()).as(stop.body()).isEqualTo(403);
            assertThat(stop.json().path("error").asText()).contains("not created by the aio agent");
            AgentClient.Answer start = client.post(AgentPaths.VM_START, new VmStartCmd(name, name, MEM, 1, List.of()));
            assertThat(start.status()).as(start.body()).isEqualTo(403);
            AgentClient.Answer attach = client.post(AgentPaths.VM_ATTACH_VOLUME, new VmAttachVolumeCmd(name, disk(root + "/a.qcow2")));
            assertThat(attach.status()).as(attach.body()).isEqualTo(403);
            assertThat(d.isActive()).as("still running").isEqualTo(1);
            assertThat(d.getXMLDesc(0)).doesNotContain("a.qcow2");
        } finally {
            d.destroy();
        }
    }

    @Test
    void aPreallocatedImageLargerThanTheFreeSpaceIsRefusedBeforeQemuImgRuns() throws IOException {
        String vol = "vol-" + UUID.randomUUID().toString().substring(0, 8);
        long tooBig = Files.getFileStore(root).getUsableSpace() + (1L << 30);
        AgentClient.Answer a = client.post(AgentPaths.VOLUME_CREATE, new VolumeCreateCmd(vol, "LocalStorage", root.toString(),
                "raw", "full", tooBig));
        assertThat(a.status()).as(a.body()).isEqualTo(400);
        assertThat(a.json().path("error").asText()).contains("not enough free space");
        assertThat(root.resolve(vol + ".raw")).doesNotExist();
    }

    private static DiskTO disk(String path) {
        return new DiskTO("vol-" + UUID.randomUUID().toString().substring(0, 6), path, "qcow2", "file", 0, "none", List.of());
    }

    /** A token with {@code certOf}'s certificate and {@code secretOf}'s secret. */
    private static String withSecretOf(String certOf, String secretOf) {
        return new EnrollmentToken(EnrollmentToken.parse(certOf).certSha256(), EnrollmentToken.parse(secretOf).secret(), null).encode();
    }

    private static boolean defined(String name) throws LibvirtException {
        return TestDriverDomains.defined(libvirt, name);
    }

}
