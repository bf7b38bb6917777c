package org.zstack.aio.test.trust;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.trust.AgentIdentity;
import org.zstack.aio.launcher.EmbeddedAgent;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two management nodes on one MariaDB (one shared key file). Node B has the agent's credentials cached from its own
 * calls; the agent's secret is rotated and an admin re-enrolls the host through node A. Node B must use the new
 * credentials at once (the agent's refusal makes it read them again), not stay locked out until it restarts; and
 * while nobody has re-enrolled, the refusal stands on both nodes with the same answer.
 */
class TwoNodeReEnrollmentTest {

    @Test
    void aHostReEnrolledThroughOneNodeIsCommandedByTheOtherWithoutARestart() throws Exception {
        try (TestDatabase db = TestDatabase.mariadb();
             RunningServer a = RunningServer.start(db, Map.of("aio.tracker.enabled", "false"));
             RunningServer b = RunningServer.start(db, Map.of("aio.tracker.enabled", "false", "aio.embedded-agent", "false"))) {
            Fixture fa = new Fixture(a);
            Fixture fb = new Fixture(b);
            String adminA = fa.adminSession();
            String adminB = fb.adminSession();
            String ps = fa.primaryStorage(adminA, "local", "LocalStorage", Storage.dir("reenroll-local"));
            String host = fa.host(adminA, a.agentPort(), a.agentEnrollment());
            String vm = fa.vm(adminA, "reenroll", host, List.of(fa.volume(adminA, "reenroll", "qcow2", "full", ps, host)));
            assertThat(action(fb, adminB, vm, "startVmInstance").status()).isEqualTo(200); // B caches the credentials
            assertThat(action(fb, adminB, vm, "stopVmInstance").status()).isEqualTo(200);

            String fresh = AgentIdentity.rotate(db.dataDir().resolve(EmbeddedAgent.DATA_SUBDIR));
            Http.Response lockedA = action(fa, adminA, vm, "startVmInstance");
            Http.Response lockedB = action(fb, adminB, vm, "startVmInstance");
            assertThat(lockedA.status()).as(lockedA.raw()).isEqualTo(503);
            assertThat(lockedB.status()).as(lockedB.raw()).isEqualTo(503);
            assertThat(lockedB.body().path("error").path("details").asText()).contains("reconnectHost");
            assertThat(state(fb, adminB, vm)).isEqualTo("Stopped");

            Http.Response reconnect = fa.http.put("/v1/hosts/" + host + "/actions", adminA,
                    "{\"reconnectHost\":{\"agentEnrollment\":\"" + fresh + "\"}}");
            assertThat(reconnect.status()).as(reconnect.raw()).isEqualTo(200);
            Http.Response viaB = action(fb, adminB, vm, "startVmInstance");
            assertThat(viaB.status()).as("node B after node A re-enrolled the host: " + viaB.raw()).isEqualTo(200);
            assertThat(action(fb, adminB, vm, "stopVmInstance").status()).isEqualTo(200);
            assertThat(action(fa, adminA, vm, "startVmInstance").status()).isEqualTo(200);
            assertThat(action(fa, adminA, vm, "stopVmInstance").status()).isEqualTo(200);
        }
    }

    static Http.Response action(Fixture f, String admin, String vm, String action) {
        return f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"" + action + "\":{}}");
    }

    static String state(Fixture f, String admin, String vm) {
        return f.http.get("/v1/vm-instances/" + vm, admin).body().path("inventory").path("state").asText();
    }
}
