package org.zstack.aio.test.api;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.SimulatedAgent;
import org.zstack.aio.test.support.TestDatabase;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The volume list keeps its unfiltered counts between pages (QueryCounts): a volume created on ANOTHER management
 * node sharing the database must still show in the very next total of this one, for the admin and for its tenant.
 */
class VolumeCountTwoNodesTest {

    @Test
    void aVolumeCreatedOnAnotherNodeIsCountedAtOnce() throws Exception {
        Map<String, String> tracker = Map.of("aio.embedded-agent", "false");
        try (TestDatabase db = TestDatabase.mariadb(); SimulatedAgent agent = new SimulatedAgent();
             RunningServer a = RunningServer.start(db, tracker); RunningServer b = RunningServer.start(db, tracker)) {
            Fixture fa = new Fixture(a);
            Fixture fb = new Fixture(b);
            String adminA = fa.adminSession();
            String adminB = fb.adminSession();
            String ps = fa.primaryStorage(adminA, "local", "LocalStorage", "/var/tmp/aio-count");
            String host = fa.host(adminA, agent.port(), agent.enrollmentToken());
            fa.volume(adminA, "a1", "qcow2", "none", ps, host);
            fa.volume(adminA, "a2", "qcow2", "none", ps, host);
            String tenantA = fa.tenant(adminA, "counted");
            String tenantB = fb.login("counted", "tenant-password-counted");

            assertThat(total(fa, adminA, "")).isEqualTo(2);
            assertThat(total(fa, adminA, "")).as("kept: asked again, nothing inserted").isEqualTo(2);
            assertThat(total(fa, tenantA, "")).isZero();

            fb.volume(adminB, "b1", "qcow2", "none", ps, host);
            assertThat(total(fa, adminA, "")).as("node B's insert, seen by node A at once").isEqualTo(3);
            fb.volume(tenantB, "t1", "qcow2", "none", ps, host);
            assertThat(total(fa, tenantA, "")).as("the tenant's count on node A").isEqualTo(1);
            assertThat(total(fa, adminA, "")).isEqualTo(4);
            assertThat(total(fa, adminA, "&q=name=b1")).as("a filtered count is always counted").isEqualTo(1);
            assertThat(total(fb, adminB, "")).isEqualTo(4);
        }
    }

    private static long total(Fixture f, String session, String query) {
        var r = f.http.get("/v1/volumes?limit=1&replyWithCount=true" + query, session);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body().path("total").asLong(-1);
    }
}
