package org.zstack.aio.test.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.PrometheusText;
import org.zstack.aio.test.support.PrometheusText.Family;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * GET /metrics (docs/contract.md, "Metrics and audit") on the real server (H2) against the simulated agent: who may read it, that a
 * strict Prometheus text parser accepts it, and that applied decisions, fallbacks, refusals, VM start and agent call
 * latencies are counted as they happen.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsApiTest {

    static final String TOKEN = "metrics-token-" + Long.toHexString(System.nanoTime());

    TestDatabase db;
    RunningServer server;
    SimulatedAgent agent;
    Fixture f;
    String admin;
    String tenant;

    @BeforeAll
    void boot() throws Exception {
        db = TestDatabase.h2();
        agent = new SimulatedAgent();
        server = RunningServer.start(db, Map.of("aio.embedded-agent", "false", "aio.metrics-token", TOKEN));
        f = new Fixture(server);
        admin = f.adminSession();
        tenant = f.tenant(admin, "metrics-tenant");
    }

    @AfterAll
    void shutdown() throws Exception {
        if (server != null) server.close();
        if (agent != null) agent.close();
        if (db != null) db.close();
    }

    @Test
    void onlyAnAdminSessionOrTheTokenMayRead() throws Exception {
        assertThat(raw(null).statusCode()).isEqualTo(401);
        HttpResponse<String> wrong = raw("Bearer not-the-token");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(Http.JSON.readTree(wrong.body()).path("error").path("code").asText()).isEqualTo("AIO.1100");
        assertThat(raw("OAuth " + tenant).statusCode()).isEqualTo(403);
        assertThat(raw("OAuth not-a-session").statusCode()).isEqualTo(401);
        HttpResponse<String> byToken = raw("Bearer " + TOKEN);
        assertThat(byToken.statusCode()).isEqualTo(200);
        assertThat(byToken.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
        assertThat(raw("OAuth " + admin).statusCode()).isEqualTo(200);
    }

    @Test
    void decisionsFallbacksRefusalsAndLatenciesAreCountedAndTheTextParsesStrictly() throws Exception {
        String local = f.primaryStorage(admin, "m-local", "LocalStorage", "/var/tmp/aio-metrics-local");
        String host = f.host(admin, agent.port(), agent.enrollmentToken());
        // the storage asks for native; the sparse volume cannot have it (falls back), the full one can
        put("/v1/resource-configurations/kvm/vm.ioMode/" + local + "/actions", "{\"updateResourceConfig\":{\"value\":\"native\"}}");
        String full = f.volume(admin, "m-full", "qcow2", "full", local, host);
        String sparse = f.volume(admin, "m-sparse", "qcow2", "none", local, host);
        String vm = f.vm(admin, "m-vm", host, List.of(full, sparse));

        Map<String, Family> before = scrape();
        Http.Response start = put("/v1/vm-instances/" + vm + "/actions", "{\"startVmInstance\":{}}");
        assertThat(start.status()).as(start.raw()).isEqualTo(200);
        JsonNode decisions = start.body().path("ioModeDecisions");
        assertThat(decisions).hasSize(2);
        JsonNode fellBack = null;
        for (JsonNode d : decisions) if (d.path("volumeUuid").asText().equals(sparse)) fellBack = d;
        assertThat(fellBack.path("effective").asText()).isNotEqualTo("native");
        String check = null;
        for (JsonNode c : fellBack.path("checks")) {
            if (!c.path("passed").asBoolean() && c.path("mode").asText().equals("native")) { check = c.path("check").asText(); break; }
        }
        assertThat(check).isNotNull();
        Map<String, Family> after = scrape();

        assertThat(delta(before, after, "aio_io_mode_decisions_total", Map.of("effective", "native", "source", "PrimaryStorageVO")))
                .isEqualTo(1.0);
        assertThat(delta(before, after, "aio_io_mode_decisions_total",
                Map.of("effective", fellBack.path("effective").asText(), "source", "PrimaryStorageVO"))).isEqualTo(1.0);
        assertThat(delta(before, after, "aio_io_mode_fallbacks_total", Map.of("check", check))).isEqualTo(1.0);
        assertThat(delta(before, after, "aio_vm_start_seconds", "aio_vm_start_seconds_count", Map.of("outcome", "success"))).isEqualTo(1.0);
        assertThat(delta(before, after, "aio_agent_call_seconds", "aio_agent_call_seconds_count",
                Map.of("path", "/vm/start", "outcome", "success"))).isEqualTo(1.0);
        assertThat(after.get("aio_vm_start_seconds").type()).isEqualTo("histogram");
        assertThat(after.get("aio_agent_call_seconds").type()).isEqualTo("histogram");
        // the tracker's rounds on the host (ping + domain sync), which bound how late an outside change is seen
        long w0 = System.nanoTime();
        Map<String, Family> tracked = scrape();
        while (!tracked.containsKey("aio_tracker_round_seconds") && System.nanoTime() - w0 < 15_000_000_000L) {
            Thread.sleep(500);
            tracked = scrape();
        }
        assertThat(tracked.get("aio_tracker_round_seconds").type()).isEqualTo("histogram");
        assertThat(put("/v1/vm-instances/" + vm + "/actions", "{\"stopVmInstance\":{}}").status()).isEqualTo(200);

        // with onUnsatisfied = fail the sparse volume refuses the start: a refusal by its check, a failed start
        put("/v1/global-configurations/kvm/vm.ioMode.onUnsatisfied/actions", "{\"updateGlobalConfig\":{\"value\":\"fail\"}}");
        try {
            Http.Response refused = put("/v1/vm-instances/" + vm + "/actions", "{\"startVmInstance\":{}}");
            assertThat(refused.status()).as(refused.raw()).isEqualTo(409);
            Map<String, Family> last = scrape();
            assertThat(delta(after, last, "aio_io_mode_refusals_total", Map.of("check", check))).isEqualTo(1.0);
            assertThat(delta(after, last, "aio_vm_start_seconds", "aio_vm_start_seconds_count", Map.of("outcome", "failure")))
                    .isEqualTo(1.0);
            assertThat(delta(after, last, "aio_io_mode_decisions_total", Map.of("effective", "native", "source", "PrimaryStorageVO")))
                    .as("a refused start applies nothing").isEqualTo(0.0);
        } finally {
            put("/v1/global-configurations/kvm/vm.ioMode.onUnsatisfied/actions", "{\"updateGlobalConfig\":{\"value\":\"fallback\"}}");
        }
    }

    @Test
    void theFrameworksJvmAndHttpServerMetricsAreThere() throws Exception {
        f.http.get("/v1/hosts", admin);
        Map<String, Family> m = scrape();
        assertThat(m).containsKeys("jvm_memory_used_bytes", "jvm_threads_live_threads", "process_cpu_usage",
                "http_server_requests_seconds", "hikaricp_connections_active");
        assertThat(m.get("http_server_requests_seconds").value("http_server_requests_seconds_count",
                Map.of("uri", "/v1/hosts", "method", "GET", "status", "200"))).isGreaterThanOrEqualTo(1.0);
    }

    private Map<String, Family> scrape() throws Exception {
        HttpResponse<String> r = raw("Bearer " + TOKEN);
        assertThat(r.statusCode()).isEqualTo(200);
        java.nio.file.Files.createDirectories(java.nio.file.Path.of("target"));
        java.nio.file.Files.writeString(java.nio.file.Path.of("target", "metrics-scrape.txt"), r.body()); // kept for reading
        return PrometheusText.parse(r.body());
    }

    private static double delta(Map<String, Family> a, Map<String, Family> b, String family, Map<String, String> labels) {
        return delta(a, b, family, family, labels);
    }

    private static double delta(Map<String, Family> a, Map<String, Family> b, String family, String sample, Map<String, String> labels) {
        assertThat(b).as("family " + family).containsKey(family);
        double after = b.get(family).value(sample, labels);
        double before = a.containsKey(family) ? a.get(family).value(sample, labels) : Double.NaN;
        return (Double.isNaN(after) ? 0 : after) - (Double.isNaN(before) ? 0 : before);
    }

    private Http.Response put(String path, String body) {
        return f.http.put(path, admin, body);
    }

    private HttpResponse<String> raw(String authorization) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics"));
        if (authorization != null) b.header("Authorization", authorization);
        return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
