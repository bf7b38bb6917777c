package org.zstack.aio.test.badinput;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11: each defect the bad-input battery found, as its own test (defect 1, the platform's config rows, is
 * {@code PlatformConfigsKeptTest}; the login limits are {@code LoginThrottlingTest}). Every refusal is also checked
 * for the contract's body and for leaving the database and the storage directory as they were.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadInputRegressionTest {

    TestDatabase db;
    BadInputBattery b;

    @BeforeAll
    void boot() throws Exception {
        db = TestDatabase.h2();
        b = new BadInputBattery(db);
    }

    @AfterAll
    void shutdown() throws Exception {
        b.close();
        db.close();
    }

    /** Sends the request and checks it was refused with this status, the contract's body, and no change. */
    RawHttp.Response refused(int status, String method, String target, String body) {
        return refused(status, method, target, body, Map.of());
    }

    RawHttp.Response refused(int status, String method, String target, String body, Map<String, String> extraHeaders) {
        var before = b.snapshot();
        Map<String, String> hs = new LinkedHashMap<>();
        hs.put("Authorization", "OAuth " + b.admin);
        if (body != null) hs.put("Content-Type", "application/json");
        hs.putAll(extraHeaders);
        RawHttp.Response r = RawHttp.send(b.server.port(),
                new RawHttp.Request(method, target, hs, body == null ? null : body.getBytes(StandardCharsets.UTF_8), false));
        assertThat(r.status()).as(method + " " + RawHttp.abbreviate(target) + ": " + r.body()).isEqualTo(status);
        assertThat(BadInputBattery.shapeBreaches(r)).as(r.body()).isEmpty();
        assertThat(b.snapshot()).as("state after a refused call").isEqualTo(before);
        return r;
    }

    String ps() { return b.ids.get("ps"); }

    String host() { return b.ids.get("host"); }

    // ---- 2: paths ----

    @Test
    void defect2_storageUrlsMustBeAbsoluteNormalisedAndPrintable() {
        for (String url : List.of("/var/tmp/a\\u0000b", "relative/dir", "/var/tmp/../etc", "/var//tmp", "/var/tmp/",
                "/" + "a".repeat(1100), "/var/tmp/\\u202Eevil", "")) {
            refused(400, "POST", "/v1/primary-storage", "{\"params\":{\"name\":\"p\",\"type\":\"LocalStorage\",\"url\":\"" + url + "\"}}");
        }
        refused(400, "POST", "/v1/primary-storage", "{\"params\":{\"name\":\"p\",\"type\":\"Ceph\",\"url\":\"ceph://po ol\\u0000\"}}");
        // and host adds keep working
        assertThat(b.fixture.localHost(b.admin)).hasSize(32);
    }

    // ---- 3: numbers ----

    @Test
    void defect3_numbersPast2To63AreOutOfRangeNotWrapped() {
        String big = "18446744073709551680"; // 2^64 + 64: wraps to 64 as a long
        refused(400, "POST", "/v1/volumes/data", "{\"params\":{\"name\":\"v\",\"size\":" + big + ",\"format\":\"qcow2\","
                + "\"primaryStorageUuid\":\"" + ps() + "\",\"hostUuid\":\"" + host() + "\"}}");
        refused(400, "POST", "/v1/volumes/data", "{\"params\":{\"name\":\"v\",\"size\":18446744073709551616067108864,"
                + "\"format\":\"qcow2\",\"primaryStorageUuid\":\"" + ps() + "\",\"hostUuid\":\"" + host() + "\"}}");
        String vm = "{\"params\":{\"name\":\"m\",\"hostUuid\":\"" + host() + "\",\"memorySize\":%s,\"cpuNum\":%s,\"volumeUuids\":[\""
                    + b.ids.get("data") + "\"]}}";
        refused(400, "POST", "/v1/vm-instances", vm.formatted(big, "1"));
        refused(400, "POST", "/v1/vm-instances", vm.formatted("67108864", "18446744073709551617"));
        refused(400, "POST", "/v1/hosts/" + host() + "/io-benchmarks", "{\"params\":{\"seconds\":18446744073709551617}}");
        refused(400, "POST", "/v1/hosts/kvm", "{\"params\":{\"name\":\"h\",\"managementIp\":\"127.0.0.1\",\"agentPort\":4294967297}}");
    }

    // ---- 4: no 500 for bad input ----

    @Test
    void defect4_badAddressesAndNonAgentsAre400() {
        for (String ip : List.of("256.1.1.1", "127.0.0.1:7070", "1.2.3", "::g", "a..b", "-x.example", "127.0.0.1 ", "http://x")) {
            refused(400, "POST", "/v1/hosts/kvm", "{\"params\":{\"name\":\"h\",\"managementIp\":\"" + ip + "\",\"agentPort\":7070}}");
        }
        // an IPv6 literal is an address; nothing answers on ::1 at a closed port, so the add is refused, not a 500
        int closed = closedPort();
        RawHttp.Response r = refused(400, "POST", "/v1/hosts/kvm",
                "{\"params\":{\"name\":\"h\",\"managementIp\":\"::1\",\"agentPort\":" + closed
                        + ",\"agentEnrollment\":\"" + b.server.agentEnrollment() + "\"}}");
        assertThat(r.json().path("error").path("description").asText()).contains("no KVM agent answers");
        // the management server itself is no agent
        refused(400, "POST", "/v1/hosts/kvm",
                "{\"params\":{\"name\":\"h\",\"managementIp\":\"127.0.0.1\",\"agentPort\":" + b.server.port()
                        + ",\"agentEnrollment\":\"" + b.server.agentEnrollment() + "\"}}");
    }

    @Test
    void defect4_volumesTheStorageCannotHoldAre400() throws Exception {
        // a storage whose directory cannot be created on the host
        String blocked = b.fixture.primaryStorage(b.admin, "blocked", "LocalStorage", "/proc/aio-nonexistent/store");
        refused(400, "POST", "/v1/volumes/data", "{\"params\":{\"name\":\"v\",\"size\":16777216,\"format\":\"qcow2\","
                + "\"primaryStorageUuid\":\"" + blocked + "\",\"hostUuid\":\"" + host() + "\"}}");
        // larger than the file system allows for one file (64 TiB raw)
        RawHttp.Response raw = RawHttp.send(b.server.port(), new RawHttp.Request("POST", "/v1/volumes/data",
                Map.of("Authorization", "OAuth " + b.admin, "Content-Type", "application/json"),
                ("{\"params\":{\"name\":\"v\",\"size\":70368744177664,\"format\":\"raw\",\"primaryStorageUuid\":\"" + ps()
                 + "\",\"hostUuid\":\"" + host() + "\"}}").getBytes(StandardCharsets.UTF_8), false));
        assertThat(raw.status()).as(raw.body()).isIn(200, 400);
        assertThat(BadInputBattery.shapeBreaches(raw)).isEmpty();
    }

    @Test
    void defect4_namesWithNulOrBidiAreRefusedAtCreate() {
        for (String name : List.of("vm\\u0000x", "vm\\u202Egpj.exe", "a\\u200Bb", "tab\\tname", "\\u2066x\\u2069", "   ")) {
            refused(400, "POST", "/v1/vm-instances", "{\"params\":{\"name\":\"" + name + "\",\"hostUuid\":\"" + host()
                    + "\",\"memorySize\":67108864,\"cpuNum\":1,\"volumeUuids\":[\"" + b.ids.get("data") + "\"]}}");
            refused(400, "POST", "/v1/volumes/data", "{\"params\":{\"name\":\"" + name + "\",\"size\":16777216,\"format\":\"qcow2\","
                    + "\"primaryStorageUuid\":\"" + ps() + "\",\"hostUuid\":\"" + host() + "\"}}");
        }
    }

    // ---- 5: a refused benchmark stores nothing ----

    @Test
    void defect5_aBenchmarkThatFailsPartWayReplacesNoStoredBenchmark() {
        String blocked = b.fixture.primaryStorage(b.admin, "bench-blocked", "LocalStorage", "/proc/aio-bench-nonexistent");
        refused(400, "POST", "/v1/hosts/" + host() + "/io-benchmarks",
                "{\"params\":{\"primaryStorageUuids\":[\"" + ps() + "\",\"" + blocked + "\"],\"seconds\":1}}");
        refused(400, "POST", "/v1/hosts/" + host() + "/io-benchmarks",
                "{\"params\":{\"primaryStorageUuids\":[\"" + ps() + "\",\"" + ps() + "\"],\"seconds\":1}}");
    }

    // ---- 6: every error is the contract's JSON, Tomcat's own included ----

    @Test
    void defect6_containerLevelErrorsAreContractJson() {
        refused(400, "GET", "/v1/volumes/a%2Fb", null);
        refused(400, "GET", "/v1/volumes/a%00b", null);
        refused(400, "GET", "/v1/volumes?q=" + "x".repeat(20_000), null);
        refused(400, "GET", "/v1/" + "y".repeat(70_000), null);
        refused(400, "GET", "/v1/volumes", null, Map.of("X-Big", "z".repeat(70_000)));
        RawHttp.Response trace = refused(405, "TRACE", "/v1/volumes", null);
        assertThat(trace.body()).doesNotContain(b.admin); // never echoed back
        refused(405, "TRACE", "/", null);
        refused(404, "GET", "/v1/no-such-api", null);
        refused(404, "GET", "/nope.html", null, Map.of("Accept", "text/html"));
        refused(400, "GET", "/v1/volumes/%GG", null);
    }

    // ---- 7: accepted where it should be refused ----

    @Test
    void defect7_logoutOfAnUnknownOrMalformedSessionIsRefused() {
        refused(400, "DELETE", "/v1/accounts/sessions/garbage", null);
        refused(404, "DELETE", "/v1/accounts/sessions/" + BadRequests.UNKNOWN_UUID, null);
    }

    @Test
    void defect7_ioModeOnAnUnknownHostIs404() {
        refused(404, "GET", "/v1/volumes/" + b.ids.get("vol") + "/io-mode?hostUuid=" + BadRequests.UNKNOWN_UUID, null);
    }

    @Test
    void defect7_readingAConfigOnAResourceItCannotBindToIs400LikeDeleting() {
        RawHttp.Response get = refused(400, "GET", "/v1/resource-configurations/" + host() + "/kvm/vm.ioMode", null);
        RawHttp.Response del = refused(400, "DELETE", "/v1/resource-configurations/kvm/vm.ioMode/" + host(), null);
        assertThat(get.json().path("error").path("code").asText()).isEqualTo(del.json().path("error").path("code").asText());
    }

    @Test
    void defect7_duplicateJsonKeysAreRefused() {
        RawHttp.Response r = refused(400, "PUT", "/v1/global-configurations/kvm/vm.ioMode/actions",
                "{\"updateGlobalConfig\":{\"value\":\"native\",\"value\":\"threads\"}}");
        assertThat(r.json().path("error").path("description").asText()).contains("twice");
        refused(400, "PUT", "/v1/accounts/login", "{\"logInByAccount\":{\"accountName\":\"admin\",\"accountName\":\"x\","
                + "\"password\":\"" + RunningServer.ADMIN_PASSWORD + "\"}}");
    }

    // ---- 9: the embedded database stays in-process and private; sessions are stored hashed ----

    @Test
    void defect9_h2OpensNoPortItsDirectoryIs0700AndSessionsAreHashed() throws Exception {
        assertThat(db.url()).doesNotContain("AUTO_SERVER");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(db.dataDir()))).isEqualTo("rwx------");
        try (var files = Files.list(db.dataDir())) {
            for (Path lock : files.filter(p -> p.toString().endsWith(".lock.db")).toList()) {
                assertThat(Files.readString(lock, StandardCharsets.ISO_8859_1)).as("H2 lock file").doesNotContain("server=");
            }
        }
        List<String> stored = new ArrayList<>();
        try (Connection c = db.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT uuid FROM SessionVO")) {
            while (rs.next()) stored.add(rs.getString(1));
        }
        assertThat(stored).isNotEmpty().doesNotContain(b.admin, b.tenant);
        // and the token still works
        assertThat(b.fixture.http.get("/v1/volumes", b.admin).status()).isEqualTo(200);
    }

    // ---- 10: body limits and security headers ----

    @Test
    void defect10_bodiesAreBoundedOnServerAndAgent() throws Exception {
        String pad = "p".repeat(100_000);
        refused(413, "PUT", "/v1/accounts/login", "{\"logInByAccount\":{\"accountName\":\"" + pad + "\"}}", Map.of("Authorization", ""));
        var before = b.snapshot();
        RawHttp.Response chunked = RawHttp.send(b.server.port(), new RawHttp.Request("PUT", "/v1/accounts/login",
                Map.of("Content-Type", "application/json"),
                ("{\"logInByAccount\":{\"accountName\":\"" + pad + "\"}}").getBytes(StandardCharsets.UTF_8), true));
        assertThat(chunked.status()).as(chunked.body()).isEqualTo(413);
        assertThat(BadInputBattery.shapeBreaches(chunked)).isEmpty();
        assertThat(b.snapshot()).isEqualTo(before);
        // the agent speaks HTTPS to its enrolled server only (an unauthenticated body is refused unread: AgentTrustTest)
        var agent = new org.zstack.aio.test.support.DirectAgent(b.server.agentPort(), b.server.agentEnrollment(), true)
                .postRaw("/host/connect", "x".repeat(2 << 20));
        assertThat(agent.status()).isEqualTo(413);
    }

    @Test
    void defect10_securityHeadersOnEveryAnswerAndNoStoreOnLogin() {
        RawHttp.Response login = RawHttp.send(b.server.port(), new RawHttp.Request("PUT", "/v1/accounts/login",
                Map.of("Content-Type", "application/json"), ("{\"logInByAccount\":{\"accountName\":\"admin\",\"password\":\""
                        + RunningServer.ADMIN_PASSWORD + "\"}}").getBytes(StandardCharsets.UTF_8), false));
        assertThat(login.status()).isEqualTo(200);
        assertThat(login.header("cache-control")).isEqualTo("no-store");
        for (RawHttp.Response r : List.of(login,
                RawHttp.send(b.server.port(), new RawHttp.Request("GET", "/", Map.of(), null, false)),
                RawHttp.send(b.server.port(), new RawHttp.Request("GET", "/v1/volumes", Map.of(), null, false)),
                RawHttp.send(b.server.port(), new RawHttp.Request("GET", "/v1/volumes/a%2Fb", Map.of(), null, false)))) {
            assertThat(r.header("content-security-policy")).contains("frame-ancestors 'none'").contains("default-src 'self'");
            assertThat(r.header("x-content-type-options")).isEqualTo("nosniff");
            assertThat(r.header("x-frame-options")).isEqualTo("DENY");
            assertThat(r.header("referrer-policy")).isEqualTo("no-referrer");
        }
    }

    // ---- 11: capacity ----

    @Test
    void defect11_aThickVolumeLargerThanTheFreeSpaceIsRefused() throws Exception {
        long free = Files.getFileStore(b.storageDir).getUsableSpace();
        long size = ((free / (1L << 20)) + 1024) << 20; // 1 GiB past what is free
        for (String prealloc : List.of("full", "falloc")) {
            RawHttp.Response r = refused(400, "POST", "/v1/volumes/data", "{\"params\":{\"name\":\"big\",\"size\":" + size
                    + ",\"format\":\"raw\",\"preallocation\":\"" + prealloc + "\",\"primaryStorageUuid\":\"" + ps()
                    + "\",\"hostUuid\":\"" + host() + "\"}}");
            assertThat(r.json().path("error").path("description").asText()).contains("free");
        }
    }

    @Test
    void defect11_accountQuotasHaveDocumentedDefaultsAndTheAdminSetsThem() {
        String tenantAccount = b.ids.get("tenantAccount");
        Map<String, String> asTenant = Map.of("Authorization", "OAuth " + b.tenant);
        JsonNode mine = b.fixture.http.get("/v1/accounts/quotas", b.tenant).body().path("inventories");
        Map<String, Long> limits = new LinkedHashMap<>();
        Map<String, Long> used = new LinkedHashMap<>();
        mine.forEach(q -> {
            limits.put(q.path("name").asText(), q.path("value").asLong());
            used.put(q.path("name").asText(), q.path("used").asLong());
        });
        assertThat(limits).containsEntry("vm.num", 100L).containsEntry("volume.capacity", 10L << 40); // docs/security.md
        assertThat(used.get("volume.capacity")).isEqualTo(16L << 20); // the tenant's one 16 MiB volume

        // a tenant may not raise its own quota; bad names, values and accounts are refused
        refused(403, "PUT", "/v1/accounts/quotas/actions", quota(tenantAccount, "vm.num", "1000"), asTenant);
        refused(400, "PUT", "/v1/accounts/quotas/actions", quota(tenantAccount, "vm.cpuNum", "1"));
        refused(400, "PUT", "/v1/accounts/quotas/actions", quota(tenantAccount, "vm.num", "-1"));
        refused(400, "PUT", "/v1/accounts/quotas/actions", quota(tenantAccount, "vm.num", "18446744073709551617"));
        refused(404, "PUT", "/v1/accounts/quotas/actions", quota(BadRequests.UNKNOWN_UUID, "vm.num", "1"));
        refused(403, "GET", "/v1/accounts/quotas?identityUuid=" + b.fixture.http.get("/v1/accounts/quotas", b.admin).body()
                .path("inventories").get(0).path("identityUuid").asText(), null, asTenant);

        try {
            // at the limit: the next VM and the next byte of volume are refused, and nothing is created
            assertThat(b.fixture.http.put("/v1/accounts/quotas/actions", b.admin,
                    quota(tenantAccount, "vm.num", "0")).status()).isEqualTo(200);
            assertThat(b.fixture.http.put("/v1/accounts/quotas/actions", b.admin,
                    quota(tenantAccount, "volume.capacity", Long.toString(used.get("volume.capacity")))).status()).isEqualTo(200);
            RawHttp.Response vm = refused(409, "POST", "/v1/vm-instances", "{\"params\":{\"name\":\"over\",\"hostUuid\":\""
                    + host() + "\",\"memorySize\":67108864,\"cpuNum\":1,\"volumeUuids\":[\"" + b.ids.get("tenantVol") + "\"]}}",
                    asTenant);
            assertThat(vm.json().path("error").path("code").asText()).isEqualTo("AIO.1302");
            refused(409, "POST", "/v1/volumes/data", "{\"params\":{\"name\":\"over\",\"size\":1048576,\"format\":\"qcow2\","
                    + "\"primaryStorageUuid\":\"" + ps() + "\",\"hostUuid\":\"" + host() + "\"}}", asTenant);
            // the admin has no quota
            assertThat(b.fixture.volume(b.admin, "admin-free", "qcow2", "none", ps(), host())).hasSize(32);
        } finally {
            b.fixture.http.put("/v1/accounts/quotas/actions", b.admin, quota(tenantAccount, "vm.num", "100"));
            b.fixture.http.put("/v1/accounts/quotas/actions", b.admin, quota(tenantAccount, "volume.capacity", Long.toString(10L << 40)));
        }
    }

    // ---- issue 29: the standalone platform's last shortfalls ----

    /** Every list endpoint; the first part of each is its path with the fixture's uuids. */
    Map<String, String> lists() {
        Map<String, String> l = new LinkedHashMap<>();
        l.put("QueryVolume", "/v1/volumes");
        l.put("QueryPrimaryStorage", "/v1/primary-storage");
        l.put("QueryHost", "/v1/hosts");
        l.put("QueryVmInstance", "/v1/vm-instances");
        l.put("QueryGlobalConfig", "/v1/global-configurations");
        l.put("QueryResourceConfig", "/v1/resource-configurations");
        l.put("QueryAccount", "/v1/accounts");
        l.put("QueryAudit", "/v1/audits");
        l.put("QueryVolumeIoModePreview", "/v1/io-mode/previews");
        l.put("QueryHostIoBenchmark", "/v1/hosts/" + host() + "/io-benchmarks");
        l.put("QueryQuota", "/v1/accounts/quotas");
        l.put("GetVmMigrationTargetHosts", "/v1/vm-instances/" + b.ids.get("vm") + "/migration-target-hosts");
        return l;
    }

    /**
     * Before: previews, benchmarks, quotas and migration targets ignored the query string (200 to an unknown field, a
     * condition without an operator, an empty field, hostUuid=abc), and every list ignored a parameter it does not
     * take. Now each list goes through the one query layer: the same operators and the same 400s.
     */
    @Test
    void issue29_everyListTakesTheOneQueryLayer() {
        // every Query operation the API describes is one of the lists below (a new one must be added here)
        b.operations.stream().filter(o -> o.method().equals("GET") && o.id().startsWith("Query"))
                .forEach(o -> assertThat(lists()).as("list endpoints").containsKey(o.id()));
        for (var list : lists().entrySet()) {
            String path = list.getValue();
            String unknownField = refused(400, "GET", path + "?q=noSuchField=1", null).body();
            assertThat(unknownField).as(list.getKey()).contains("'noSuchField'").contains("Queryable fields");
            assertThat(refused(400, "GET", path + "?q=noOperator", null).body()).as(list.getKey()).contains("is malformed");
            assertThat(refused(400, "GET", path + "?q==1", null).body()).as(list.getKey()).contains("is malformed");
            assertThat(refused(400, "GET", path + "?limit=-1", null).body()).as(list.getKey()).contains("'limit'");
            assertThat(refused(400, "GET", path + "?sort=%2BnoSuchField", null).body()).as(list.getKey()).contains("'noSuchField'");
            assertThat(refused(400, "GET", path + "?fields=noSuchField", null).body()).as(list.getKey()).contains("'noSuchField'");
            RawHttp.Response junk = refused(400, "GET", path + "?hostUuid=abc", null);
            assertThat(junk.json().path("error").path("description").asText()).as(list.getKey())
                    .isEqualTo("query parameter 'hostUuid' is not one this list takes.");
            assertThat(junk.json().path("error").path("details").asText()).contains("q=field=value");
            var all = b.fixture.http.get(path + "?replyWithCount=true", b.admin);
            assertThat(all.status()).as(list.getKey() + ": " + all.raw()).isEqualTo(200);
            assertThat(all.body().path("total").asLong()).as(list.getKey()).isEqualTo(all.body().path("inventories").size());
        }
        // previews: the volumes a query selects, each with its preview; volumeUuid is validated as a uuid
        String vol = b.ids.get("vol");
        var one = b.fixture.http.get("/v1/io-mode/previews?q=uuid=" + vol + "&fields=volumeUuid,effective", b.admin).body();
        assertThat(one.path("inventories")).hasSize(1);
        assertThat(one.path("inventories").get(0).path("volumeUuid").asText()).isEqualTo(vol);
        assertThat(one.path("inventories").get(0).has("reason")).isFalse();
        var named = b.fixture.http.get("/v1/io-mode/previews?volumeUuid=" + vol + "&q=name=no-such-name", b.admin).body();
        assertThat(named.path("inventories")).isEmpty();
        assertThat(refused(400, "GET", "/v1/io-mode/previews?volumeUuid=abc", null).json().path("error").path("code").asText())
                .isEqualTo("AIO.1006");
        var count = b.fixture.http.get("/v1/io-mode/previews?count=true", b.admin).body();
        assertThat(count.path("total").asLong()).isEqualTo(b.fixture.http.get("/v1/volumes?count=true", b.admin).body()
                .path("total").asLong());
        // quotas: the account a query selects, each with its quotas; identityUuid is validated as a uuid
        assertThat(b.fixture.http.get("/v1/accounts/quotas?q=name=admin", b.admin).body().path("inventories")).hasSize(2);
        assertThat(b.fixture.http.get("/v1/accounts/quotas?q=name!=admin", b.admin).body().path("inventories")).isEmpty();
        refused(400, "GET", "/v1/accounts/quotas?identityUuid=abc", null);
        // migration targets: no other host here, and a condition on the hosts' fields
        assertThat(b.fixture.http.get("/v1/vm-instances/" + b.ids.get("vm") + "/migration-target-hosts?q=status=Connected",
                b.admin).body().path("inventories")).isEmpty();
    }

    /** Before: a token with a space after it enrolled the host (200), as if the text had been the printed token. */
    @Test
    void issue29_theEnrollmentTokenIsTakenExactlyAsPrinted() {
        String printed = b.server.agentEnrollment();
        for (String copied : List.of(printed + " ", " " + printed, printed + "\n", printed + "\t")) {
            RawHttp.Response r = refused(400, "POST", "/v1/hosts/kvm", "{\"params\":{\"name\":\"padded\",\"managementIp\":"
                    + "\"127.0.0.1\",\"agentPort\":" + b.server.agentPort() + ",\"agentEnrollment\":"
                    + RawHttp.JSON.valueToTree(copied) + "}}");
            assertThat(r.json().path("error").path("description").asText()).contains("spaces or line breaks around it");
            assertThat(r.json().path("error").path("details").asText()).contains("exactly as printed");
        }
    }

    /**
     * Before: a body of 16 MB got no answer at all (Tomcat stopped reading past 2 MB after the 413 and reset the
     * connection, so the client lost the answer). Now every size, chunked or with Content-Length, reads a 413 with the
     * contract's body, and nothing changes.
     */
    @Test
    void issue29_bodiesOfAnySizeAreAnswered413() {
        String prefix = "{\"logInByAccount\":{\"accountName\":\"";
        for (long size : new long[] {16L << 20, 100L << 20}) {
            for (boolean chunked : new boolean[] {false, true}) {
                var before = b.snapshot();
                RawHttp.Response r = RawHttp.sendStreamed(b.server.port(), "PUT", "/v1/accounts/login",
                        Map.of("Content-Type", "application/json"), prefix, size, chunked);
                assertThat(r.status()).as(size + " bytes" + (chunked ? ", chunked: " : ": ") + r.body()).isEqualTo(413);
                assertThat(BadInputBattery.shapeBreaches(r)).as(r.body()).isEmpty();
                assertThat(r.json().path("error").path("code").asText()).isEqualTo("AIO.1007");
                assertThat(b.snapshot()).isEqualTo(before);
            }
        }
        // and the server still answers the next request on a new connection
        assertThat(b.fixture.http.get("/v1/hosts", b.admin).status()).isEqualTo(200);
    }

    /** Before: GET /error, the servlet container's error page called directly, answered 500. */
    @Test
    void issue29_theErrorPathIsNoApiAndNeverA5xx() {
        for (String method : List.of("GET", "POST", "PUT", "DELETE")) {
            RawHttp.Response r = refused(404, method, "/error", "POST".equals(method) || "PUT".equals(method) ? "{}" : null);
            assertThat(r.json().path("error").path("code").asText()).isEqualTo("AIO.1201");
        }
        refused(404, "GET", "/error?x=1", null, Map.of("Authorization", ""));
    }

    static String quota(String account, String name, String value) {
        return "{\"updateQuota\":{\"identityUuid\":\"" + account + "\",\"name\":\"" + name + "\",\"value\":" + value + "}}";
    }

    static int closedPort() {
        try (var s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

}
