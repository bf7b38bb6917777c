package org.zstack.aio.test.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.agent.api.VmListRsp;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;
import org.zstack.sdk.DeleteResourceConfigAction;
import org.zstack.sdk.GetResourceConfigAction;
import org.zstack.sdk.UpdateGlobalConfigAction;
import org.zstack.sdk.UpdateResourceConfigAction;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, "Block storage keeps native by default": SharedBlock storage added to a running installation (so the
 * upgrade's one-time pin never saw it) runs native with no config, from block storage's default in
 * conf/aio/io-mode-rules.yaml, as stock ZStack's agent ran it; an admin's changed global value or a value on the
 * storage wins. File storage keeps the global default. Through the REST API and the SDK, VMs started on a simulated
 * agent that records each disk's io attribute.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StorageKindDefaultH2Test {

    static final String IO = "vm.ioMode";

    TestDatabase db;
    RunningServer server;
    SimulatedAgent agent;
    Fixture f;
    String admin;
    String block;
    String blockVolume;
    String fileVolume;
    String vm;

    @BeforeAll
    void boot() throws Exception {
        db = TestDatabase.h2();
        server = RunningServer.start(db);
        agent = new SimulatedAgent();
        f = new Fixture(server);
        admin = f.adminSession();
        String host = f.host(admin, agent.port(), agent.enrollmentToken());
        String local = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("kind-local"));
        block = f.primaryStorage(admin, "san", "SharedBlock", Storage.dir("kind-block"));
        blockVolume = f.volume(admin, "lun", "raw", "none", block, host);
        fileVolume = f.volume(admin, "file", "qcow2", "full", local, host);
        vm = f.vm(admin, "vm", host, List.of(blockVolume, fileVolume));
    }

    @AfterAll
    void shutdown() throws Exception {
        if (agent != null) agent.close();
        if (server != null) server.close();
        if (db != null) db.close();
    }

    /** Each test starts from a fresh install's configs: no override, every global at its default. */
    @AfterEach
    void resetConfigs() throws Exception {
        db.resetConfigs();
    }

    @Test
    void newSharedBlockStorageWithNoConfigRunsNative() {
        assertThat(ioOnStart()).containsEntry(blockVolume, "native").containsEntry(fileVolume, "threads");
        JsonNode d = stored(blockVolume);
        assertThat(d.path("requested").asText()).isEqualTo("native");
        assertThat(d.path("source").asText()).isEqualTo("StorageKindDefault");
        assertThat(d.path("effective").asText()).isEqualTo("native");
        assertThat(d.path("reason").asText()).startsWith("native requested (StorageKindDefault: SharedBlock is block"
                + " storage, whose default is native in conf/aio/io-mode-rules.yaml, and no admin set kvm/vm.ioMode)");
        JsonNode file = stored(fileVolume);
        assertThat(file.path("requested").asText()).isEqualTo("threads");
        assertThat(file.path("source").asText()).isEqualTo("global");
        // no pin was written: the config API shows config values only, so it answers the global value
        GetResourceConfigAction a = new GetResourceConfigAction();
        a.resourceUuid = block;
        a.category = "kvm";
        a.name = IO;
        assertThat(a.call(f.as(admin)).effectiveConfigs).extracting(e -> e.resourceType).containsExactly("global");
    }

    @Test
    void anAdminsChangedGlobalValueWins() {
        updateGlobal("io_uring");
        // io_uring is known-bad on LVM (rules), so the block disk steps down to native; the request says who asked
        assertThat(ioOnStart()).containsEntry(blockVolume, "native");
        JsonNode d = stored(blockVolume);
        assertThat(d.path("requested").asText()).isEqualTo("io_uring");
        assertThat(d.path("source").asText()).isEqualTo("global");
        assertThat(stored(fileVolume).path("requested").asText()).isEqualTo("io_uring");

        // set back to its default, the global value is no choice: the kind's default again
        updateGlobal("threads");
        assertThat(ioOnStart()).containsEntry(blockVolume, "native");
        assertThat(stored(blockVolume).path("source").asText()).isEqualTo("StorageKindDefault");
    }

    @Test
    void anAdminsValueOnTheStorageWins() {
        UpdateResourceConfigAction set = new UpdateResourceConfigAction();
        set.category = "kvm";
        set.name = IO;
        set.resourceUuid = block;
        set.value = "threads";
        set.call(f.as(admin));
        assertThat(ioOnStart()).containsEntry(blockVolume, "threads");
        JsonNode d = stored(blockVolume);
        assertThat(d.path("requested").asText()).isEqualTo("threads");
        assertThat(d.path("source").asText()).isEqualTo("PrimaryStorageVO");

        DeleteResourceConfigAction delete = new DeleteResourceConfigAction();
        delete.category = "kvm";
        delete.name = IO;
        delete.resourceUuid = block;
        delete.call(f.as(admin));
        assertThat(ioOnStart()).containsEntry(blockVolume, "native");
    }

    /** Starts the VM, stops it again, and returns what the agent was asked to give each disk (volume uuid -> io). */
    private Map<String, String> ioOnStart() {
        var r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        List<VmListRsp.Disk> disks = List.copyOf(agent.disks.get(vm));
        r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        Map<String, String> bySource = disks.stream().collect(Collectors.toMap(VmListRsp.Disk::source, VmListRsp.Disk::io));
        return Map.of(blockVolume, bySource.get(installPath(blockVolume)), fileVolume, bySource.get(installPath(fileVolume)));
    }

    private String installPath(String volume) {
        return inventory(volume).path("installPath").asText();
    }

    /** The decision stored at the last start, as the volume's inventory carries it. */
    private JsonNode stored(String volume) {
        return inventory(volume).path("ioModeDecision");
    }

    private JsonNode inventory(String volume) {
        var r = f.http.get("/v1/volumes/" + volume, admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body().path("inventory");
    }

    private void updateGlobal(String value) {
        UpdateGlobalConfigAction a = new UpdateGlobalConfigAction();
        a.category = "kvm";
        a.name = IO;
        a.value = value;
        a.call(f.as(admin));
    }
}
