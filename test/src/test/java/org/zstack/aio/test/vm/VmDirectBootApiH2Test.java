package org.zstack.aio.test.vm;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The VM create extension for a direct kernel boot ({@code params.boot}, {@code params.accel}): stored and shown back;
 * bad input is a 400 with a sentence and creates nothing (the volume stays free). The boot itself on real QEMU is
 * proven by RealGuestWorkloadE2ETest.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VmDirectBootApiH2Test {

    TestDatabase db;
    RunningServer server;
    Fixture f;
    String admin;
    String host;
    String dir;
    String local;

    @BeforeAll
    void boot() throws Exception {
        db = TestDatabase.h2();
        server = RunningServer.start(db);
        f = new Fixture(server);
        admin = f.adminSession();
        dir = Storage.dir("direct-boot");
        local = f.primaryStorage(admin, "local", "LocalStorage", dir);
        host = f.localHost(admin);
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (db != null) db.close();
    }

    @Test
    void aDirectBootIsStoredAndShownBackAndAVmWithoutOneShowsNone() {
        String vol = f.volume(admin, "guest-data", "raw", "full", local, host, 1L << 20);
        Http.Response r = create(vol, "\"boot\":{\"kernel\":\"" + dir + "/vmlinuz\",\"initrd\":\"" + dir + "/initrd.gz\","
                + "\"cmdline\":\"console=ttyS0 aio.wl=randwrite-4k-qd16\",\"consoleLog\":\"" + dir + "/console.log\"},"
                + "\"accel\":\"tcg\"");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        String vm = r.body().path("inventory").path("uuid").asText();
        JsonNode got = f.http.get("/v1/vm-instances/" + vm, admin).body().path("inventory");
        assertThat(got.path("boot").path("kernel").asText()).isEqualTo(dir + "/vmlinuz");
        assertThat(got.path("boot").path("initrd").asText()).isEqualTo(dir + "/initrd.gz");
        assertThat(got.path("boot").path("cmdline").asText()).isEqualTo("console=ttyS0 aio.wl=randwrite-4k-qd16");
        assertThat(got.path("boot").path("consoleLog").asText()).isEqualTo(dir + "/console.log");
        assertThat(got.path("accel").asText()).isEqualTo("tcg");

        String plain = f.vm(admin, "plain", host, List.of(f.volume(admin, "plain-data", "qcow2", "none", local, host)));
        JsonNode p = f.http.get("/v1/vm-instances/" + plain, admin).body().path("inventory");
        assertThat(p.has("boot")).as(p.toString()).isFalse();
        assertThat(p.has("accel")).isFalse();
    }

    @Test
    void badBootParamsAre400WithASentenceAndCreateNothing() {
        String vol = f.volume(admin, "bad-boot-data", "raw", "full", local, host, 1L << 20);
        String k = "\"kernel\":\"" + dir + "/vmlinuz\"";
        List<String[]> cases = List.of(
                new String[]{"\"boot\":\"" + dir + "/vmlinuz\"", "must be a JSON object"},
                new String[]{"\"boot\":{}", "'boot.kernel' is required"},
                new String[]{"\"boot\":{" + k + ",\"root\":\"/dev/vda\"}", "unknown field"},
                new String[]{"\"boot\":{\"kernel\":\"/boot/vmlinuz\"}", "not inside a primary storage"},
                new String[]{"\"boot\":{\"kernel\":\"" + dir + "\"}", "not inside a primary storage"},
                new String[]{"\"boot\":{\"kernel\":\"" + dir + "/../../etc/vmlinuz\"}", "'boot.kernel' must be an absolute, normalised path"},
                new String[]{"\"boot\":{" + k + ",\"initrd\":\"initrd.gz\"}", "'boot.initrd' must be an absolute, normalised path"},
                new String[]{"\"boot\":{\"kernel\":\"" + dir + "/vm\\u0007linuz\"}", "without control characters"},
                new String[]{"\"boot\":{" + k + ",\"consoleLog\":\"/etc/cron.d/x\"}", "not inside a primary storage"},
                new String[]{"\"boot\":{" + k + ",\"cmdline\":\"console=ttyS0\\ninit=/bin/sh\"}", "not printable ASCII"},
                new String[]{"\"boot\":{" + k + ",\"cmdline\":\"" + "a".repeat(1025) + "\"}", "more than 1024"},
                new String[]{"\"boot\":{" + k + ",\"cmdline\":7}", "must be a JSON string"},
                new String[]{"\"accel\":\"hvf\"", "not one of [kvm, tcg]"});
        long vmsBefore = vmCount();
        for (String[] c : cases) {
            Http.Response r = create(vol, c[0]);
            assertThat(r.status()).as(c[0] + " -> " + r.raw()).isEqualTo(400);
            assertThat(r.body().path("error").path("description").asText()).as(c[0]).contains(c[1]);
            assertThat(r.body().path("error").path("details").asText()).as(c[0]).isNotBlank();
        }
        assertThat(vmCount()).isEqualTo(vmsBefore);
        JsonNode v = f.http.get("/v1/volumes/" + vol, admin).body().path("inventory");
        assertThat(v.path("vmInstanceUuid").isNull() || v.path("vmInstanceUuid").isMissingNode()).as(v.toString()).isTrue();
    }

    Http.Response create(String volume, String extra) {
        return f.http.post("/v1/vm-instances", admin, "{\"params\":{\"name\":\"guest\",\"hostUuid\":\"" + host
                + "\",\"memorySize\":134217728,\"cpuNum\":1,\"volumeUuids\":[\"" + volume + "\"]," + extra + "}}");
    }

    long vmCount() {
        return f.http.get("/v1/vm-instances?count=true", admin).body().path("total").asLong();
    }
}
