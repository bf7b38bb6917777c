package org.zstack.aio.agent;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.AgentError;
import org.zstack.aio.agent.api.AgentPaths;
import org.zstack.aio.agent.api.HostConnectCmd;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.agent.support.AgentClient;
import org.zstack.aio.agent.support.TestAgents;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import java.util.Map;

/** The HTTP contract of an embedded agent on libvirt's test driver: status codes and error bodies. */
class AgentProtocolTest {

    private static KvmAgent agent;
    private static AgentClient client;

    @BeforeAll
    static void start() {
        agent = KvmAgent.start(TestAgents.settings()
                .withLibvirtUri("test:///default"));
        client = new AgentClient(agent);
    }

    @AfterAll
    static void stop() {
        agent.close();
    }

    @Test
    void pingAnswersWithAnEmptyBody() {
        AgentClient.Answer a = client.postRaw(AgentPaths.PING, "");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.json().get("status").asText()).isEqualTo("UP");
        assertThat(a.json().get("libvirtUri").asText()).isEqualTo("test:///default");
    }

    @Test
    void malformedJsonIs400WithAnAgentError() {
        AgentClient.Answer a = client.postRaw(AgentPaths.VM_START, "{\"vmUuid\": ");
        assertThat(a.status()).isEqualTo(400);
        AgentError e = a.as(AgentError.class);
        assertThat(e.error()).contains("malformed VmStartCmd");
        assertThat(e.details()).isNotBlank();
    }

    @Test
    void wrongTypesAre400() {
        AgentClient.Answer a = client.postRaw(AgentPaths.VM_START, "{\"vmUuid\":\"x\",\"memorySize\":\"lots\"}");
        assertThat(a.status()).isEqualTo(400);
    }

    @Test
    void aMissingRequiredListIs400() {
        // VmStartCmd refuses a null disks list in its constructor
        AgentClient.Answer a = client.postRaw(AgentPaths.VM_START, "{\"vmUuid\":\"x\",\"memorySize\":67108864}");
        assertThat(a.status()).isEqualTo(400);
    }

    @Test
    void anEmptyBodyIs400ForACommand() {
        AgentClient.Answer a = client.postRaw(AgentPaths.VM_STOP, "");
        assertThat(a.status()).isEqualTo(400);
        assertThat(a.as(AgentError.class).error()).contains("VmStopCmd");
    }

    @Test
    void unknownPathIs404AndListsTheKnownOnes() {
        AgentClient.Answer a = client.postRaw("/vm/reboot", "{}");
        assertThat(a.status()).isEqualTo(404);
        assertThat(a.as(AgentError.class).details()).contains(AgentPaths.VM_START);
    }

    @Test
    void getIs405() {
        assertThat(client.get(AgentPaths.VM_START).status()).isEqualTo(405);
    }

    @Test
    void unknownFieldsAreIgnoredSoANewerServerCanTalkToAnOlderAgent() {
        AgentClient.Answer a = client.postRaw(AgentPaths.VM_STOP, "{\"vmUuid\":\"never-defined-1\",\"force\":true}");
        assertThat(a.status()).isEqualTo(200);
        assertThat(a.json().get("existed").asBoolean()).isFalse();
    }

    @Test
    void badValuesAre400NotCrashes() {
        AgentClient.Answer a = client.postRaw(AgentPaths.VM_STOP, "{\"vmUuid\":\"../../etc\"}");
        assertThat(a.status()).isEqualTo(400);
        assertThat(a.as(AgentError.class).error()).contains("vmUuid");
    }

    @Test
    void hostFactsAreProbed() throws Exception {
        Path dir = Files.createTempDirectory(Path.of("target"), "facts-");
        try {
            AgentClient.Answer a = client.post(AgentPaths.HOST_CONNECT,
                    new HostConnectCmd("host-1", List.of(dir.toString(), "/no/such/dir")));
            assertThat(a.status()).isEqualTo(200);
            HostFactsRsp f = a.as(HostFactsRsp.class);
            assertThat(f.kernelVersion()).isEqualTo(Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip());
            assertThat(f.libvirtVersion()).matches("\\d+\\.\\d+\\.\\d+");
            assertThat(f.libvirtUri()).isEqualTo("test:///default");
            assertThat(f.storagePaths()).hasSize(2);
            assertThat(f.storagePaths().get(1).oDirect()).isFalse();
            assertThat(f.storagePaths().get(1).error()).contains("not a directory");
            // the probe's temp files are gone
            try (var files = Files.list(dir)) {
                assertThat(files).isEmpty();
            }
            if (f.qemuIoUring() == Boolean.FALSE) {
                assertThat(f.qemuIoUringError()).isNotBlank();
            }
        } finally {
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void twoAgentsLiveInOneJvm() {
        try (KvmAgent second = KvmAgent.start(TestAgents.settings()
                .withLibvirtUri("test:///default").withRefusedIoModes(Set.of("io_uring")))) {
            assertThat(second.port()).isNotEqualTo(agent.port());
            assertThat(new AgentClient(second).postRaw(AgentPaths.PING, "").json()
                    .get("refusedIoModes").get(0).asText()).isEqualTo("io_uring");
            assertThat(client.postRaw(AgentPaths.PING, "").json().get("refusedIoModes")).isEmpty();
        }
    }

    @Test
    void anUnreachableLibvirtFailsTheStartWithAClearMessage() {
        assertThatThrownBy(() -> KvmAgent.start(TestAgents.settings().withBindAddress("0.0.0.0")
                .withLibvirtUri("qemu+unix:///system?socket=/nonexistent/sock")))
                .isInstanceOf(AgentStartException.class)
                .hasMessageContaining("cannot connect to libvirt");
    }

    @Test
    void aTakenPortFailsTheStartWithAClearMessage() {
        assertThatThrownBy(() -> KvmAgent.start(TestAgents.settings().withPort(agent.port())
                .withBindAddress("127.0.0.1").withLibvirtUri("test:///default")))
                .isInstanceOf(AgentStartException.class)
                .hasMessageContaining("cannot listen");
    }

    @Test
    void settingsReadTheEnvironment() {
        AgentSettings s = AgentSettings.fromEnvironment(Map.of("AIO_AGENT_PORT", "7999",
                "AIO_LIBVIRT_URI", "test:///default", "AIO_AGENT_REFUSE_IO", " io_uring , NATIVE"));
        assertThat(s.port()).isEqualTo(7999);
        assertThat(s.libvirtUri()).isEqualTo("test:///default");
        assertThat(s.refusedIoModes()).containsExactlyInAnyOrder("io_uring", "native");
        assertThatThrownBy(() -> AgentSettings.fromEnvironment(Map.of("AIO_AGENT_PORT", "x")))
                .hasMessageContaining("AIO_AGENT_PORT");
    }
}
