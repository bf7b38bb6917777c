package org.zstack.aio.zstacksdk;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;
import org.zstack.sdk.StartVmInstanceAction;
import org.zstack.sdk.StopVmInstanceAction;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** ZStack's SDK against plugin-aio on H2, with a simulated agent (which can be made slow). */
class ZStackSdkH2Test extends ZStackSdkContract {

    SimulatedAgent agent;

    @Override
    TestDatabase database() throws Exception {
        return TestDatabase.h2();
    }

    @Override
    Map<String, String> serverSettings() {
        return Map.of();
    }

    @Override
    int agentPort() throws Exception {
        agent = new SimulatedAgent();
        return agent.port();
    }

    @Override
    String agentEnrollment() {
        return agent.enrollmentToken();
    }

    @Override
    void assertQemu(String vmUuid, boolean running) {
        // simulated host: no QEMU here (ZStackSdkMariaDbTest checks the real process)
    }

    @AfterAll
    void stopAgent() {
        if (agent != null) agent.close();
    }

    /** The SDK reads with a 10 s timeout; a start that takes 11 s completes through the job protocol's polling. */
    @Test
    void aStartLongerThanTheSdksReadTimeoutCompletesThroughJobPolling() {
        String vm = sdk.vm(admin, "vm-slow", host, createVolume("slow", 16 * MIB, psC).uuid);
        agent.startDelayMillis = 11_000;
        try {
            StartVmInstanceAction start = new StartVmInstanceAction();
            start.uuid = vm;
            start.sessionId = admin;
            long t0 = System.nanoTime();
            StartVmInstanceAction.Result r = start.call();
            long tookMs = (System.nanoTime() - t0) / 1_000_000;
            assertThat(r.error).isNull();
            assertThat(r.value.getInventory().getState()).isEqualTo("Running");
            assertThat(tookMs).isGreaterThanOrEqualTo(11_000);
        } finally {
            agent.startDelayMillis = 0;
        }
        StopVmInstanceAction stop = new StopVmInstanceAction();
        stop.uuid = vm;
        stop.sessionId = admin;
        assertThat(stop.call().error).isNull();
    }

    /** A client retrying with the same X-Job-UUID gets the same job: the VM is started once. */
    @Test
    void theSameJobUuidRunsTheCallOnce() throws Exception {
        String vm = sdk.vm(admin, "vm-once", host, createVolume("once", 16 * MIB, psC).uuid);
        String job = UUID.randomUUID().toString().replace("-", "");
        long before = agent.starts.get();
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/v1/vm-instances/" + vm + "/actions"))
                    .header("Authorization", "OAuth " + admin).header("X-Job-UUID", job)
                    .header("Content-Type", "application/json")
                    .PUT(HttpRequest.BodyPublishers.ofString("{\"startVmInstance\":{}}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(202);
            assertThat(r.body()).contains("/v1/api-jobs/" + job);
        }
        Http.Response done = poll(job, admin);
        assertThat(done.status()).isEqualTo(200);
        assertThat(done.body().path("inventory").path("state").asText()).isEqualTo("Running");
        assertThat(agent.starts.get() - before).isEqualTo(1);

        String other = sdk.login("admin", org.zstack.aio.test.support.RunningServer.ADMIN_PASSWORD);
        assertThat(sdk.http.get("/v1/api-jobs/" + job, other).status()).isEqualTo(200);
        assertThat(sdk.http.get("/v1/api-jobs/" + job, null).status()).isEqualTo(401);
        assertThat(sdk.http.get("/v1/api-jobs/unknown-job", admin).status()).isEqualTo(404);
    }

    Http.Response poll(String job, String session) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            Http.Response r = sdk.http.get("/v1/api-jobs/" + job, session);
            if (r.status() != 202) return r;
            Thread.sleep(100);
        }
        throw new AssertionError("job " + job + " still running after 30 s");
    }
}
