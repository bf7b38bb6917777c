package org.zstack.aio.test.api;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent that receives the start command and dies before answering: the API says 503 with the error body, the
 * VM stays Stopped and its stored decisions are unchanged; once the agent answers again the same start succeeds.
 */
class AgentDiesDuringStartTest {

    @Test
    void aStartWhoseAgentDiesMidwayChangesNothingAndCanBeRetried() throws Exception {
        try (TestDatabase db = TestDatabase.mariadb(); RunningServer server = RunningServer.start(db);
             SimulatedAgent agent = new SimulatedAgent()) {
            Fixture f = new Fixture(server);
            String admin = f.adminSession();
            String ps = f.primaryStorage(admin, "local", "LocalStorage", "/var/tmp/aio-sim");
            String host = f.host(admin, agent.port(), agent.enrollmentToken());
            String vol = f.volume(admin, "v", "qcow2", "full", ps, host);
            String vm = f.vm(admin, "vm", host, List.of(vol));

            agent.dieDuringStart = true;
            Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
            assertThat(agent.starts.get()).as("the agent did receive the command").isEqualTo(1);
            assertThat(r.status()).as(r.raw()).isEqualTo(503);
            assertThat(r.errorCode()).isEqualTo("AIO.1500");
            // the server cannot know what the agent did before dying: it stops the VM again, and only then says so
            assertThat(r.body().path("error").path("details").asText()).contains("stopped the VM on that host again")
                    .contains("nothing was changed");
            assertThat(agent.stops.get()).as("the undo reached the agent").isEqualTo(1);
            assertThat(f.http.get("/v1/vm-instances/" + vm, admin).body().path("inventory").path("state").asText())
                    .isEqualTo("Stopped");
            assertThat(f.http.get("/v1/volumes/" + vol, admin).body().path("inventory").path("ioModeDecision").isNull()).isTrue();

            agent.dieDuringStart = false;
            r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
            assertThat(r.status()).as(r.raw()).isEqualTo(200);
            assertThat(r.body().path("inventory").path("state").asText()).isEqualTo("Running");
            assertThat(r.body().path("ioModeDecisions").get(0).path("effective").asText()).isEqualTo("threads");

            // a running VM cannot start again: 409, and the agent is not even asked
            long sent = agent.starts.get();
            r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
            assertThat(r.status()).as(r.raw()).isEqualTo(409);
            assertThat(r.errorCode()).isEqualTo("AIO.1300");
            assertThat(agent.starts.get()).isEqualTo(sent);
            assertThat(f.http.get("/v1/vm-instances/" + vm, admin).body().path("inventory").path("state").asText())
                    .isEqualTo("Running");
        }
    }

    @Test
    void whenTheUndoOfAnUnansweredStartFailsTooTheAnswerSaysTheVmMayBeRunning() throws Exception {
        try (TestDatabase db = TestDatabase.mariadb(); RunningServer server = RunningServer.start(db);
             SimulatedAgent agent = new SimulatedAgent()) {
            Fixture f = new Fixture(server);
            String admin = f.adminSession();
            String ps = f.primaryStorage(admin, "local", "LocalStorage", "/var/tmp/aio-sim");
            String host = f.host(admin, agent.port(), agent.enrollmentToken());
            String vm = f.vm(admin, "vm", host, List.of(f.volume(admin, "v", "qcow2", "full", ps, host)));

            agent.dieDuringStart = true;
            agent.dieDuringStop = true;
            Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
            assertThat(r.status()).as(r.raw()).isEqualTo(503);
            assertThat(agent.stops.get()).as("the undo was tried").isEqualTo(1);
            assertThat(r.body().path("error").path("details").asText()).contains("may be running")
                    .doesNotContain("nothing was changed");
        }
    }
}
