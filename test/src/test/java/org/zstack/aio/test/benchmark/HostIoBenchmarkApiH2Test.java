package org.zstack.aio.test.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RealComponents;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;
import org.zstack.sdk.QueryHostIoBenchmarkAction;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The io benchmark through the API on H2 with the server's real embedded agent: a tiny real qemu-img bench is
 * run, stored per host × primary storage with when it was taken, listed, and then used by auto's decision.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HostIoBenchmarkApiH2Test {

    TestDatabase db;
    RunningServer server;
    Fixture f;
    String admin;
    String host;
    String local;
    String localDir;
    String block;

    @BeforeAll
    void boot() throws Exception {
        RealComponents.require(onPath("qemu-img"), "qemu-img", "apt-get install qemu-utils");
        db = TestDatabase.h2();
        server = RunningServer.start(db);
        f = new Fixture(server);
        admin = f.adminSession();
        localDir = Storage.dir("bench-local");
        local = f.primaryStorage(admin, "local", "LocalStorage", localDir);
        block = f.primaryStorage(admin, "block", "SharedBlock", Storage.dir("bench-block"));
        host = f.localHost(admin);
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (db != null) db.close();
    }

    @Test
    void benchmarkIsStoredListedAndUsedByAuto() throws Exception {
        String vol = f.volume(admin, "v", "qcow2", "none", local, host, 1L << 20);
        f.vm(admin, "vm", host, List.of(vol));

        Http.Response r = f.http.post("/v1/hosts/" + host + "/io-benchmarks", admin,
                "{\"params\":{\"primaryStorageUuids\":[\"" + local + "\"],\"seconds\":2}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        JsonNode inv = r.body().get("inventories").get(0);
        assertThat(inv.get("primaryStorageUuid").asText()).isEqualTo(local);
        assertThat(inv.get("takenAt").asText()).endsWith("Z");
        assertThat(inv.get("cells").size()).isPositive();
        assertThat(inv.get("scores").has("qcow2-none")).as(inv.toString()).isTrue();
        try (var leftovers = Files.list(Path.of(localDir))) {
            assertThat(leftovers.filter(p -> p.getFileName().toString().startsWith(".aio-bench-")).toList())
                    .as("temporary images removed").isEmpty();
        }

        QueryHostIoBenchmarkAction q = new QueryHostIoBenchmarkAction();
        q.uuid = host;
        var listed = q.call(f.as(admin)).inventories;
        assertThat(listed).hasSize(1);
        assertThat(listed.get(0).takenAt).isEqualTo(inv.get("takenAt").asText());
        assertThat(listed.get(0).cells).isNotEmpty();

        f.http.put("/v1/resource-configurations/kvm/vm.ioMode/" + local + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"auto\"}}");
        JsonNode decision = f.ioMode(admin, vol);
        String reason = decision.toString();
        assertThat(reason).as("auto used the measurement").contains("measured on this storage");
        assertThat(decision.toString()).doesNotContain("\"effective\":\"native\"");
    }

    @Test
    void aPartOfTheMatrixMeasuresOnlyThoseCellsAndUnknownNamesAre400() {
        Http.Response r = f.http.post("/v1/hosts/" + host + "/io-benchmarks", admin, "{\"params\":{\"primaryStorageUuids\":[\""
                + local + "\"],\"seconds\":2,\"imageKinds\":[\"raw-full\"],\"workloads\":[\"randread-4k-qd16\"]}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        JsonNode cells = r.body().get("inventories").get(0).get("cells");
        assertThat(cells.size()).as(cells.toString()).isEqualTo(3);
        cells.forEach(c -> assertThat(c.get("imageKind").asText() + " " + c.get("workload").asText())
                .isEqualTo("raw-full randread-4k-qd16"));

        for (String bad : List.of("\"imageKinds\":[\"qcow3-full\"]", "\"workloads\":[]", "\"workloads\":\"randread-4k-qd16\"",
                "\"workloads\":[\"randread-4k-qd16\",\"randread-4k-qd16\"]", "\"imageKinds\":[7]")) {
            Http.Response b = f.http.post("/v1/hosts/" + host + "/io-benchmarks", admin,
                    "{\"params\":{\"primaryStorageUuids\":[\"" + local + "\"],\"seconds\":2," + bad + "}}");
            assertThat(b.status()).as(bad + " -> " + b.raw()).isEqualTo(400);
            assertThat(b.body().path("error").path("details").asText()).as(bad).isNotBlank();
        }
    }

    @Test
    void blockStorageIsRefusedAndTenantsAreForbidden() {
        Http.Response r = f.http.post("/v1/hosts/" + host + "/io-benchmarks", admin,
                "{\"params\":{\"primaryStorageUuids\":[\"" + block + "\"],\"seconds\":2}}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.raw()).contains("not file storage");
        Http.Response bad = f.http.post("/v1/hosts/" + host + "/io-benchmarks", admin, "{\"params\":{\"seconds\":999}}");
        assertThat(bad.status()).isEqualTo(400);
        String tenant = f.tenant(admin, "bench-tenant");
        assertThat(f.http.get("/v1/hosts/" + host + "/io-benchmarks", tenant).status()).isEqualTo(403);
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, tool))) return true;
        }
        return false;
    }
}
