package org.zstack.aio.test.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.agent.AgentSettings;
import org.zstack.aio.agent.KvmAgent;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.QemuProcess;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.net.ServerSocket;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.Map;

/**
 * End to end on real parts: REST API -> management server (MariaDB) -> KVM agent -> real libvirtd -> a real QEMU
 * process, whose /proc shows the io mode each disk really runs. Needs qemu:///system (bin/lib/setup-libvirt.sh).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RealVmIoModeE2ETest {

    TestDatabase db;
    RunningServer server;
    Fixture f;
    Http http;
    String admin;
    String local;
    String localSparse;
    String host;
    final List<String> vms = new ArrayList<>();
    final List<KvmAgent> extraAgents = new ArrayList<>();

    @BeforeAll
    void boot() throws Exception {
        RealComponents.require(QemuProcess.libvirtAnswers(), "libvirtd at qemu:///system", "run bin/lib/setup-libvirt.sh as root");
        db = TestDatabase.mariadb();
        server = RunningServer.start(db, Map.of("AIO_LIBVIRT_URI", "qemu:///system"));
        f = new Fixture(server);
        http = f.http;
        admin = f.adminSession();
        local = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("e2e-local"));
        localSparse = f.primaryStorage(admin, "local-native", "LocalStorage", Storage.dir("e2e-native"));
        host = f.localHost(admin);
    }

    @AfterEach
    void stopVmsAndResetConfigs() throws Exception {
        for (String vm : vms) {
            if ("Running".equals(state(vm))) http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
        }
        try (Connection c = db.connect()) {
            c.createStatement().executeUpdate("UPDATE GlobalConfigVO SET value = defaultValue");
        }
    }

    @AfterAll
    void shutdown() throws Exception {
        extraAgents.forEach(KvmAgent::close);
        if (server != null) server.close();
        if (db != null) db.close();
    }

    @Test
    void eachModeRunsInTheQemuProcessAsDecided() {
        for (String mode : List.of("threads", "native", "io_uring")) {
            String vol = volume("full-" + mode, "qcow2", "full", local);
            override("vm.ioMode", vol, mode);
            String vm = vm("vm-" + mode, vol);
            JsonNode started = start(vm);
            assertThat(started.path("ioModeDecisions").get(0).path("effective").asText()).isEqualTo(mode);
            assertThat(started.path("ioModeDecisions").get(0).path("appliedIo").asText()).isEqualTo(mode);

            QemuProcess qemu = QemuProcess.of(vm);
            assertThat(qemu.aio(installPath(vol))).as("aio of the " + mode + " disk").isEqualTo(mode);
            assertThat(qemu.hasIoUringFd()).as("io_uring fd with " + mode).isEqualTo(mode.equals("io_uring"));
            assertThat(qemu.hasKernelAioRing()).as("[aio] mapping with " + mode).isEqualTo(mode.equals("native"));
            assertThat(qemu.cacheDirect(installPath(vol))).isTrue();
        }
    }

    @Test
    void sparseImageWithNativeOnItsStorageRunsThreadsAndAutoRunsIoUring() {
        override("vm.ioMode", localSparse, "native");
        String vol = volume("sparse", "qcow2", "none", localSparse);
        String vm = vm("vm-sparse", vol);
        JsonNode d = start(vm).path("ioModeDecisions").get(0);
        assertThat(d.path("requested").asText()).isEqualTo("native");
        assertThat(d.path("source").asText()).isEqualTo("PrimaryStorageVO");
        assertThat(d.path("effective").asText()).isEqualTo("threads");
        assertThat(d.path("reason").asText()).contains("non-sparse-image").contains("sparse");
        assertThat(QemuProcess.of(vm).aio(installPath(vol))).isEqualTo("threads");
        assertThat(stored(vol).path("effective").asText()).isEqualTo("threads");

        stop(vm);
        override("vm.ioMode", vol, "auto");
        d = start(vm).path("ioModeDecisions").get(0);
        assertThat(d.path("effective").asText()).isEqualTo("io_uring");
        assertThat(QemuProcess.of(vm).aio(installPath(vol))).isEqualTo("io_uring");
        assertThat(QemuProcess.of(vm).hasIoUringFd()).isTrue();
    }

    @Test
    void nativeWithWritebackFallsBackAndWithFailTheStartIsRefusedAndNothingIsLeft() {
        String ps = f.primaryStorage(admin, "wb", "LocalStorage", Storage.dir("e2e-wb"));
        override("vm.ioMode", ps, "native");
        String vol = volume("writeback", "qcow2", "full", ps);
        override("vm.cacheMode", vol, "writeback");
        String vm = vm("vm-writeback", vol);
        JsonNode d = start(vm).path("ioModeDecisions").get(0);
        assertThat(d.path("effective").asText()).isEqualTo("threads");
        assertThat(d.path("reason").asText()).contains("cache-mode").contains("writeback");
        assertThat(QemuProcess.of(vm).aio(installPath(vol))).isEqualTo("threads");
        assertThat(QemuProcess.of(vm).cacheDirect(installPath(vol))).isFalse();
        stop(vm);
        String before = stored(vol).toString();

        global("vm.ioMode.onUnsatisfied", "fail");
        Http.Response r = http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(409);
        assertThat(r.errorCode()).isEqualTo("AIO.1301");
        assertThat(r.body().path("error").path("description").asText()).contains(vol).contains("cache-mode");
        assertThat(state(vm)).isEqualTo("Stopped");
        assertThat(QemuProcess.defined(vm)).as("domain left defined").isFalse();
        JsonNode refused = stored(vol);
        assertThat(refused.path("refused").asBoolean()).isTrue();
        assertThat(refused.toString()).isNotEqualTo(before);
    }

    @Test
    void ioUringSwitchedOffOnTheHostFallsBackToNativeWithTheReason() throws Exception {
        String vol = volume("uring-off", "qcow2", "full", local);
        override("vm.ioMode", vol, "io_uring");
        String vm = vm("vm-uring-off", vol);
        try (Connection c = db.connect()) {
            c.createStatement().executeUpdate("UPDATE HostIoCapabilitiesVO SET ioUringDisabled = 2 WHERE hostUuid = '" + host + "'");
        }
        try {
            JsonNode d = start(vm).path("ioModeDecisions").get(0);
            assertThat(d.path("effective").asText()).isEqualTo("native");
            assertThat(d.path("reason").asText()).contains("io_uring-sysctl").contains("io_uring_disabled is 2");
            assertThat(QemuProcess.of(vm).aio(installPath(vol))).isEqualTo("native");
        } finally {
            try (Connection c = db.connect()) {
                c.createStatement().executeUpdate("UPDATE HostIoCapabilitiesVO SET ioUringDisabled = 0 WHERE hostUuid = '" + host + "'");
            }
        }
    }

    @Test
    void aRefusalByQemuAtStartStepsDownTheChainAndIsRecorded() throws Exception {
        String[] vmAndVolume = ioUringVmOnARefusingAgent("refused");
        String vm = vmAndVolume[0];
        String vol = vmAndVolume[1];
        JsonNode d = start(vm).path("ioModeDecisions").get(0);
        assertThat(d.path("effective").asText()).isEqualTo("native");
        assertThat(d.path("appliedIo").asText()).isEqualTo("native");
        assertThat(d.path("attempts")).singleElement().satisfies(a -> assertThat(a.path("io").asText()).isEqualTo("io_uring"));
        assertThat(d.path("reason").asText()).contains("refused io_uring");
        assertThat(QemuProcess.of(vm).aio(installPath(vol))).isEqualTo("native");
    }

    @Test
    void aRefusalByQemuWithFailPolicyFailsTheStartAndLeavesNothing() throws Exception {
        String[] vmAndVolume = ioUringVmOnARefusingAgent("refused-fail");
        String vm = vmAndVolume[0];
        String vol = vmAndVolume[1];
        global("vm.ioMode.onUnsatisfied", "fail");
        Http.Response r = http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(503);
        assertThat(r.errorCode()).isEqualTo("AIO.1502");
        assertThat(r.body().path("error").path("description").asText()).contains("io_uring");
        assertThat(state(vm)).isEqualTo("Stopped");
        assertThat(QemuProcess.defined(vm)).as("domain left defined").isFalse();
        assertThat(stored(vol).isNull()).as("no decision stored for a start that did not happen").isTrue();
    }

    @Test
    void hotPlugAppliesTheDecisionToTheRunningQemu() {
        String boot = volume("hp-boot", "qcow2", "full", local);
        String vm = vm("vm-hotplug", boot);
        start(vm);
        assertThat(QemuProcess.of(vm).hasIoUringFd()).isFalse();
        String data = volume("hp-data", "qcow2", "full", local);
        override("vm.ioMode", data, "io_uring");
        Http.Response r = http.post("/v1/volumes/" + data + "/vm-instances/" + vm, admin, "{\"params\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(r.body().path("ioModeDecision").path("effective").asText()).isEqualTo("io_uring");
        assertThat(r.body().path("ioModeDecision").path("appliedIo").asText()).isEqualTo("io_uring");
        assertThat(r.body().path("inventory").path("vmInstanceUuid").asText()).isEqualTo(vm);
        assertThat(QemuProcess.of(vm).hasIoUringFd()).as("io_uring fd after hot-plug").isTrue();
    }

    @Test
    void anAgentThatIsDownAnswers503AndChangesNothingThenTheSameStartSucceeds() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        AgentSettings settings = AgentSettings.defaults().withBindAddress("127.0.0.1").withPort(port).withLibvirtUri("qemu:///system")
                .withDataDir(java.nio.file.Path.of(Storage.dir("agent-data"))); // kept across the restart below
        KvmAgent agent = KvmAgent.start(settings);
        String agentHost = f.host(admin, port, agent.enrollmentToken());
        String vol = volume("agent-down", "qcow2", "full", local);
        String vm = f.vm(admin, "vm-agent-down", agentHost, List.of(vol));
        vms.add(vm);
        agent.close();

        Http.Response r = http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(503);
        assertThat(r.errorCode()).isEqualTo("AIO.1500");
        assertThat(state(vm)).isEqualTo("Stopped");
        assertThat(stored(vol).isNull()).as("stored decision after a failed start").isTrue();
        assertThat(QemuProcess.defined(vm)).isFalse();

        extraAgents.add(KvmAgent.start(settings));
        JsonNode d = start(vm).path("ioModeDecisions").get(0);
        assertThat(d.path("effective").asText()).isEqualTo("threads");
        assertThat(state(vm)).isEqualTo("Running");
    }

    // ---- helpers ----

    /** A VM with one io_uring volume on a second agent that treats io_uring as refused by QEMU: {vm, volume}. */
    String[] ioUringVmOnARefusingAgent(String name) {
        KvmAgent refusing = KvmAgent.start(AgentSettings.defaults().withBindAddress("127.0.0.1").withPort(0)
                .withDataDir(java.nio.file.Path.of(Storage.dir("agent-data")))
                .withLibvirtUri("qemu:///system").withRefusedIoModes(Set.of("io_uring")));
        extraAgents.add(refusing);
        String refusingHost = f.host(admin, refusing.port(), refusing.enrollmentToken());
        String vol = volume(name, "qcow2", "full", local);
        override("vm.ioMode", vol, "io_uring");
        String vm = f.vm(admin, "vm-" + name, refusingHost, List.of(vol));
        vms.add(vm);
        return new String[]{vm, vol};
    }

    String volume(String name, String format, String prealloc, String ps) {
        return f.volume(admin, name, format, prealloc, ps, host, 64L << 20);
    }

    String vm(String name, String volume) {
        String vm = f.vm(admin, name, host, List.of(volume));
        vms.add(vm);
        return vm;
    }

    JsonNode start(String vm) {
        Http.Response r = http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(r.body().path("inventory").path("state").asText()).isEqualTo("Running");
        return r.body();
    }

    void stop(String vm) {
        Http.Response r = http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        assertThat(QemuProcess.running(vm)).isFalse();
    }

    String state(String vm) {
        return http.get("/v1/vm-instances/" + vm, admin).body().path("inventory").path("state").asText();
    }

    JsonNode stored(String volume) {
        return http.get("/v1/volumes/" + volume, admin).body().path("inventory").path("ioModeDecision");
    }

    String installPath(String volume) {
        return http.get("/v1/volumes/" + volume, admin).body().path("inventory").path("installPath").asText();
    }

    void override(String name, String resource, String value) {
        Http.Response r = http.put("/v1/resource-configurations/kvm/" + name + "/" + resource + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"" + value + "\"}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }

    void global(String name, String value) {
        Http.Response r = http.put("/v1/global-configurations/kvm/" + name + "/actions", admin,
                "{\"updateGlobalConfig\":{\"value\":\"" + value + "\"}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }
}
