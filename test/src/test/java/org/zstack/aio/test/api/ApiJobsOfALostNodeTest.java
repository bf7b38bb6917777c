package org.zstack.aio.test.api;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.ServerProcess;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ZStack's job protocol across management nodes on one MariaDB: node A (its own process) accepts a VM start with
 * X-Job-UUID and is SIGKILLed while the (slow) agent works; node B, polled for the job, must stop answering 202 and
 * answer 503 AIO.1503 with what to do, not "still running" forever. Finished jobs past the retention are pruned.
 */
class ApiJobsOfALostNodeTest {

    @Test
    void aJobOfAKilledNodeFailsWithASentenceAndOldFinishedJobsArePruned() throws Exception {
        try (TestDatabase db = TestDatabase.mariadb(); SimulatedAgent agent = new SimulatedAgent()) {
            agent.startDelayMillis = 120_000; // the start is still at the agent when node A dies
            ServerProcess a = ServerProcess.start(db, Path.of("target", "lost-node-" + System.currentTimeMillis() + ".log"),
                    Map.of("aio.agent.timeout", "PT180S"), Duration.ofSeconds(90));
            String job = UUID.randomUUID().toString().replace("-", "");
            try (RunningServer b = RunningServer.start(db, Map.of("aio.embedded-agent", "false", "aio.jobs.retention", "PT1H"))) {
                Fixture fa = new Fixture(a.baseUrl());
                String admin = fa.adminSession();
                String ps = fa.primaryStorage(admin, "local", "LocalStorage", "/var/tmp/aio-sim-lost-node");
                String host = fa.host(admin, agent.port(), agent.enrollmentToken());
                String vm = fa.vm(admin, "lost-node", host, List.of(fa.volume(admin, "lost-node", "qcow2", "full", ps, host)));
                HttpResponse<String> accepted = HttpClient.newHttpClient().send(
                        HttpRequest.newBuilder(URI.create(a.baseUrl() + "/v1/vm-instances/" + vm + "/actions"))
                                .header("Authorization", "OAuth " + admin).header("X-Job-UUID", job)
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString("{\"startVmInstance\":{}}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(202);
                Http viaB = new Http(b.baseUrl());
                long w0 = System.nanoTime();
                while (agent.starts.get() == 0) {
                    assertThat(System.nanoTime() - w0).as("the start reached the agent").isLessThan(30_000_000_000L);
                    Thread.sleep(50);
                }
                assertThat(viaB.get("/v1/api-jobs/" + job, admin).status()).as("running, polled through B").isEqualTo(202);
                a.kill();
                long t0 = System.nanoTime();
                Http.Response r = viaB.get("/v1/api-jobs/" + job, admin);
                while (r.status() == 202 && System.nanoTime() - t0 < 60_000_000_000L) {
                    Thread.sleep(500);
                    r = viaB.get("/v1/api-jobs/" + job, admin);
                }
                System.out.printf("jobs: a killed node's job answered %d after %d ms%n", r.status(), (System.nanoTime() - t0) / 1_000_000);
                assertThat(r.status()).as(r.raw()).isEqualTo(503);
                assertThat(r.body().path("error").path("code").asText()).isEqualTo("AIO.1503");
                assertThat(r.body().path("error").path("details").asText()).contains("new X-Job-UUID");

                // retention: a job finished two hours ago goes, one finished now stays, a lost Running one is failed and kept
                try (Connection c = db.connect()) {
                    insert(c, "old-done", "Succeeded", "DATE_SUB(NOW(3), INTERVAL 2 HOUR)");
                    insert(c, "new-done", "Failed", "NOW(3)");
                    insert(c, "old-running", "Running", "DATE_SUB(NOW(3), INTERVAL 2 HOUR)");
                }
                long p0 = System.nanoTime();
                while (exists(db, "old-done") && System.nanoTime() - p0 < 20_000_000_000L) Thread.sleep(250);
                assertThat(exists(db, "old-done")).as("pruned").isFalse();
                assertThat(exists(db, "new-done")).as("kept within the retention").isTrue();
                assertThat(exists(db, "old-running")).as("a Running job is failed, not deleted").isTrue();
            } finally {
                a.kill();
            }
        }
    }

    static void insert(Connection c, String uuid, String state, String createDate) throws Exception {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO AioApiJobVO (uuid, apiName, state, httpStatus, result, "
                + "createDate, lastOpDate) VALUES (?, 'PUT /v1/test', ?, 200, '{}', " + createDate + ", " + createDate + ")")) {
            s.setString(1, uuid);
            s.setString(2, state);
            s.executeUpdate();
        }
    }

    static boolean exists(TestDatabase db, String uuid) throws Exception {
        try (Connection c = db.connect(); PreparedStatement s = c.prepareStatement("SELECT 1 FROM AioApiJobVO WHERE uuid = ?")) {
            s.setString(1, uuid);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next();
            }
        }
    }
}
