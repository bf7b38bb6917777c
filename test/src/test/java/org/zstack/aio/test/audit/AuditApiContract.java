package org.zstack.aio.test.audit;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.transaction.IllegalTransactionStateException;
import org.springframework.transaction.support.TransactionTemplate;
import org.zstack.aio.server.account.Caller;
import org.zstack.aio.server.audit.AuditEntry;
import org.zstack.aio.server.audit.AuditService;
import org.zstack.aio.server.config.ConfigService;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * docs/contract.md, "Metrics and audit" on the real server and database: each recorded change has its row (who, what, from, to, when,
 * from where), a refused call adds none, a failed login adds one and nothing else, the row shares the change's
 * transaction, and GET /v1/audits is admin-only and paged. Run on H2 and MariaDB by the subclasses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AuditApiContract {

    TestDatabase db;
    RunningServer server;
    SimulatedAgent agent;
    Fixture f;
    Http http;
    String admin;

    abstract TestDatabase database() throws Exception;

    @BeforeAll
    void boot() throws Exception {
        db = database();
        agent = new SimulatedAgent();
        server = RunningServer.start(db, Map.of("aio.embedded-agent", "false"));
        f = new Fixture(server);
        http = f.http;
        admin = f.adminSession();
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (agent != null) agent.close();
        if (db != null) db.close();
    }

    @Test
    void aGlobalConfigChangeIsRecordedWithWhoWhatFromToWhenAndWhere() {
        Instant before = Instant.now().minusSeconds(2);
        String old = http.get("/v1/global-configurations/kvm/vm.cacheMode", admin).body().path("inventory").path("value").asText();
        ok(http.put("/v1/global-configurations/kvm/vm.cacheMode/actions", admin, "{\"updateGlobalConfig\":{\"value\":\"writeback\"}}"));
        try {
            JsonNode a = newest("UpdateGlobalConfig");
            assertThat(a.path("accountName").asText()).isEqualTo("admin");
            assertThat(a.path("resourceType").asText()).isEqualTo("GlobalConfigVO");
            assertThat(a.path("resourceName").asText()).isEqualTo("kvm/vm.cacheMode");
            assertThat(a.path("oldValue").asText()).isEqualTo(old);
            assertThat(a.path("newValue").asText()).isEqualTo("writeback");
            assertThat(a.path("success").asBoolean()).isTrue();
            assertThat(a.path("error").isNull()).isTrue();
            assertThat(a.path("clientIp").asText()).isEqualTo("127.0.0.1");
            assertThat(a.path("uuid").asText()).matches("[0-9a-f]{32}");
            Instant at = Instant.parse(a.path("createDate").asText());
            assertThat(at).isAfter(before).isBefore(Instant.now().plusSeconds(2));
        } finally {
            ok(http.put("/v1/global-configurations/kvm/vm.cacheMode/actions", admin, "{\"updateGlobalConfig\":{\"value\":\"" + old + "\"}}"));
        }
    }

    @Test
    void aRefusedChangeRecordsNothing() throws Exception {
        long n = rows();
        Http.Response bad = http.put("/v1/global-configurations/kvm/vm.ioMode/actions", admin, "{\"updateGlobalConfig\":{\"value\":\"fast\"}}");
        assertThat(bad.status()).isEqualTo(400);
        String tenant = f.tenant(admin, "audit-refused");
        long afterTenant = rows();
        Http.Response forbidden = http.put("/v1/global-configurations/kvm/vm.ioMode/actions", tenant, "{\"updateGlobalConfig\":{\"value\":\"auto\"}}");
        assertThat(forbidden.status()).isEqualTo(403);
        assertThat(rows()).isEqualTo(afterTenant).isEqualTo(n + 1); // only the CreateAccount of the tenant
    }

    @Test
    void aFailedLoginIsRecordedAndCreatesNoSession() throws Exception {
        long sessions = count("SELECT COUNT(*) FROM SessionVO");
        Http.Response r = http.put("/v1/accounts/login", null,
                "{\"logInByAccount\":{\"accountName\":\"admin\",\"password\":\"wrong-password\"}}");
        assertThat(r.status()).isEqualTo(401);
        JsonNode a = newest("LogInByAccount");
        assertThat(a.path("accountName").asText()).isEqualTo("admin");
        assertThat(a.path("success").asBoolean()).isFalse();
        assertThat(a.path("error").asText()).contains("wrong account name or password");
        assertThat(a.path("clientIp").asText()).isEqualTo("127.0.0.1");
        assertThat(a.toString()).doesNotContain("wrong-password");
        assertThat(count("SELECT COUNT(*) FROM SessionVO")).isEqualTo(sessions);
    }

    @Test
    void resourceConfigsAccountsHostsAndVmStartStopAreRecorded() throws Exception {
        String tenant = f.tenant(admin, "audit-tenant");
        assertThat(newest("CreateAccount").path("resourceName").asText()).isEqualTo("audit-tenant");
        String ps = f.primaryStorage(admin, "audit-local", "LocalStorage", "/var/tmp/aio-audit-local");
        String host = f.host(admin, agent.port(), agent.enrollmentToken());
        JsonNode added = newest("AddKVMHost");
        assertThat(added.path("resourceUuid").asText()).isEqualTo(host);
        assertThat(added.path("newValue").asText()).isEqualTo("127.0.0.1:" + agent.port());
        ok(http.put("/v1/hosts/" + host + "/actions", admin, "{\"reconnectHost\":{}}"));
        JsonNode reconnected = newest("ReconnectHost");
        assertThat(reconnected.path("resourceUuid").asText()).isEqualTo(host);
        assertThat(reconnected.path("newValue").asText()).isEqualTo("Connected");

        String vol = f.volume(tenant, "audit-vol", "qcow2", "full", ps, host);
        ok(http.put("/v1/resource-configurations/kvm/vm.ioMode/" + vol + "/actions", tenant, "{\"updateResourceConfig\":{\"value\":\"native\"}}"));
        JsonNode set = newest("UpdateResourceConfig");
        assertThat(set.path("accountName").asText()).isEqualTo("audit-tenant");
        assertThat(set.path("resourceType").asText()).isEqualTo("VolumeVO");
        assertThat(set.path("resourceUuid").asText()).isEqualTo(vol);
        assertThat(set.path("resourceName").asText()).isEqualTo("kvm/vm.ioMode");
        assertThat(set.path("oldValue").isNull()).isTrue();
        assertThat(set.path("newValue").asText()).isEqualTo("native");
        ok(http.put("/v1/resource-configurations/kvm/vm.ioMode/" + vol + "/actions", tenant, "{\"updateResourceConfig\":{\"value\":\"auto\"}}"));
        assertThat(newest("UpdateResourceConfig").path("oldValue").asText()).isEqualTo("native");
        ok(http.delete("/v1/resource-configurations/kvm/vm.ioMode/" + vol, tenant));
        JsonNode deleted = newest("DeleteResourceConfig");
        assertThat(deleted.path("oldValue").asText()).isEqualTo("auto");
        assertThat(deleted.path("newValue").isNull()).isTrue();

        String vm = f.vm(tenant, "audit-vm", host, List.of(vol));
        ok(http.put("/v1/vm-instances/" + vm + "/actions", tenant, "{\"startVmInstance\":{}}"));
        JsonNode started = newest("StartVmInstance");
        assertThat(started.path("resourceUuid").asText()).isEqualTo(vm);
        assertThat(started.path("oldValue").asText()).isEqualTo("Stopped");
        assertThat(started.path("newValue").asText()).isEqualTo("Running");
        assertThat(started.path("accountName").asText()).isEqualTo("audit-tenant");
        ok(http.put("/v1/vm-instances/" + vm + "/actions", tenant, "{\"stopVmInstance\":{}}"));
        assertThat(newest("StopVmInstance").path("newValue").asText()).isEqualTo("Stopped");

        // a start the agent never answers changes nothing: the VM stays stopped, no StartVmInstance row
        long starts = count("SELECT COUNT(*) FROM AuditVO WHERE action = 'StartVmInstance'");
        agent.dieDuringStart = true;
        try {
            assertThat(http.put("/v1/vm-instances/" + vm + "/actions", tenant, "{\"startVmInstance\":{}}").status()).isEqualTo(503);
        } finally {
            agent.dieDuringStart = false;
        }
        assertThat(count("SELECT COUNT(*) FROM AuditVO WHERE action = 'StartVmInstance'")).isEqualTo(starts);
    }

    @Test
    void theRowSharesTheChangesTransaction() throws Exception {
        AuditService audit = server.bean(AuditService.class);
        Caller root = new Caller("root", "admin", true, "test");
        assertThatThrownBy(() -> audit.record(root, AuditEntry.globalConfig("kvm", "vm.ioMode", "a", "b")))
                .as("recording outside a transaction is refused").isInstanceOf(IllegalTransactionStateException.class);
        long n = rows();
        String before = value("vm.ioMode");
        // the change and its row roll back together
        server.bean(TransactionTemplate.class).executeWithoutResult(s -> {
            server.bean(ConfigService.class).updateGlobal(root, "kvm", "vm.ioMode", Http.JSON.getNodeFactory().textNode("auto"));
            s.setRollbackOnly();
        });
        assertThat(rows()).isEqualTo(n);
        assertThat(value("vm.ioMode")).isEqualTo(before);
    }

    @Test
    void onlyAnAdminReadsTheAuditAndItIsPaged() throws Exception {
        String tenant = f.tenant(admin, "audit-reader");
        for (int i = 0; i < 4; i++) f.tenant(admin, "audit-reader-" + i);
        Http.Response r = http.get("/v1/audits", tenant);
        assertThat(r.status()).isEqualTo(403);
        assertThat(http.get("/v1/audits", null).status()).isEqualTo(401);
        assertThat(http.get("/v1/audits?limit=-1", admin).status()).isEqualTo(400);
        assertThat(http.get("/v1/audits?q=nosuchfield=1", admin).status()).isEqualTo(400);
        // the query layer of every list: conditions on what an auditor asks (who, what)
        for (JsonNode a : ok(http.get("/v1/audits?q=action=CreateAccount&q=resourceName~=audit-reader%25", admin)).path("inventories")) {
            assertThat(a.path("action").asText()).isEqualTo("CreateAccount");
            assertThat(a.path("resourceName").asText()).startsWith("audit-reader");
        }
        assertThat(ok(http.get("/v1/audits?q=action=CreateAccount&q=resourceName~=audit-reader%25&count=true", admin))
                .path("total").asLong()).isEqualTo(5);
        assertThat(http.get("/v1/audits?start=-1", admin).status()).isEqualTo(400);
        JsonNode all = ok(http.get("/v1/audits?limit=1000", admin)).path("inventories");
        assertThat(all.size()).isGreaterThanOrEqualTo(2);
        for (int i = 1; i < all.size(); i++) {
            assertThat(all.get(i - 1).path("createDate").asText().compareTo(all.get(i).path("createDate").asText()))
                    .as("newest first").isGreaterThanOrEqualTo(0);
        }
        List<String> paged = new ArrayList<>();
        for (int start = 0; start < all.size(); start += 3) {
            for (JsonNode a : ok(http.get("/v1/audits?limit=3&start=" + start, admin)).path("inventories")) paged.add(a.path("uuid").asText());
        }
        List<String> whole = new ArrayList<>();
        all.forEach(a -> whole.add(a.path("uuid").asText()));
        assertThat(paged).isEqualTo(whole);
    }

    private JsonNode newest(String action) {
        for (JsonNode a : ok(http.get("/v1/audits?limit=50", admin)).path("inventories")) {
            if (a.path("action").asText().equals(action)) return a;
        }
        throw new AssertionError("no audit row for " + action);
    }

    private String value(String name) {
        return ok(http.get("/v1/global-configurations/kvm/" + name, admin)).path("inventory").path("value").asText();
    }

    private long rows() throws Exception {
        return count("SELECT COUNT(*) FROM AuditVO");
    }

    private long count(String sql) throws Exception {
        try (Connection c = db.connect(); ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static JsonNode ok(Http.Response r) {
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

}
