package org.zstack.aio.test.api;

import org.hibernate.SessionFactory;
import org.hibernate.stat.EntityStatistics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.zstack.aio.server.iomode.VolumeIoModeDecisionVO;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.Http;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.Storage;
import org.zstack.aio.test.support.TestDatabase;

import jakarta.persistence.EntityManagerFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A VM start that decides the same again neither loads nor writes the stored decisions (it compares their digests), and
 * their "decided since" stays; a changed decision is written with a new one; a row stored before digests (migration
 * 4.9.12) keeps its date and gets its digest. Counted by Hibernate's statistics, rows read by JDBC.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DecisionDigestH2Test {

    TestDatabase db;
    RunningServer server;
    Fixture f;
    String admin;
    String vm;
    String first;
    String second;

    @BeforeAll
    void boot() throws Exception {
        db = TestDatabase.h2();
        server = RunningServer.start(db, Map.of("aio.tracker.enabled", "false"));
        f = new Fixture(server);
        admin = f.adminSession();
        String local = f.primaryStorage(admin, "local", "LocalStorage", Storage.dir("digest-local"));
        String host = f.localHost(admin);
        first = f.volume(admin, "d0", "qcow2", "full", local, host, 1L << 20);
        second = f.volume(admin, "d1", "qcow2", "none", local, host, 1L << 20);
        vm = f.vm(admin, "digest", host, List.of(first, second));
        f.http.put("/v1/global-configurations/kvm/vm.ioMode/actions", admin, "{\"updateGlobalConfig\":{\"value\":\"auto\"}}");
        start();
        stop();
    }

    @AfterAll
    void shutdown() throws Exception {
        server.close();
        db.close();
    }

    @Test
    void anUnchangedDecisionIsNeitherLoadedNorWrittenAndKeepsItsDate() throws Exception {
        Map<String, Object[]> before = rows();
        EntityStatistics s = stats();
        long loads = s.getLoadCount();
        long updates = s.getUpdateCount();
        Http.Response r = start();
        stop();
        assertThat(s.getLoadCount() - loads).as("decision rows loaded").isZero();
        assertThat(s.getUpdateCount() - updates).as("decision rows written").isZero();
        assertThat(rows()).usingRecursiveComparison().isEqualTo(before);
        // the answer still lists each disk's decision with its checks and the date it holds since
        assertThat(r.body().path("ioModeDecisions")).hasSize(2).allSatisfy(d -> {
            assertThat(d.path("checks").size()).isPositive();
            assertThat(d.path("decidedAt").asText()).isNotBlank();
        });
    }

    @Test
    void aRowStoredBeforeDigestsKeepsItsDateAndGetsItsDigest() throws Exception {
        Map<String, Object[]> before = rows();
        try (Connection c = db.connect(); PreparedStatement p = c.prepareStatement(
                "UPDATE VolumeIoModeDecisionVO SET contentDigest = NULL WHERE volumeUuid = ?")) {
            p.setString(1, first);
            assertThat(p.executeUpdate()).isEqualTo(1);
        }
        EntityStatistics s = stats();
        long loads = s.getLoadCount();
        start();
        stop();
        assertThat(s.getLoadCount() - loads).as("only the row without a digest is loaded").isEqualTo(1);
        assertThat(rows()).usingRecursiveComparison().isEqualTo(before);
    }

    @Test
    void aChangedDecisionIsWrittenWithANewDigestAndDate() throws Exception {
        Map<String, Object[]> before = rows();
        Thread.sleep(5); // the date column keeps milliseconds
        f.http.put("/v1/resource-configurations/kvm/vm.ioMode/" + first + "/actions", admin,
                "{\"updateResourceConfig\":{\"value\":\"threads\"}}");
        try {
            Http.Response r = start();
            stop();
            Map<String, Object[]> after = rows();
            assertThat(after.get(first)[0]).as("digest").isNotEqualTo(before.get(first)[0]);
            assertThat((Timestamp) after.get(first)[1]).isAfter((Timestamp) before.get(first)[1]);
            assertThat(after.get(first)[2]).isEqualTo("threads");
            assertThat(r.body().path("ioModeDecisions").get(0).path("requested").asText()).isEqualTo("threads");
            assertThat(after.get(second)).as("the other disk's decision did not change").isEqualTo(before.get(second));
        } finally {
            f.http.put("/v1/resource-configurations/kvm/vm.ioMode/" + first + "/actions", admin,
                    "{\"updateResourceConfig\":{\"value\":\"auto\"}}");
            start();
            stop();
        }
    }

    private Http.Response start() {
        Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"startVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r;
    }

    private void stop() {
        Http.Response r = f.http.put("/v1/vm-instances/" + vm + "/actions", admin, "{\"stopVmInstance\":{}}");
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
    }

    private EntityStatistics stats() {
        return server.bean(EntityManagerFactory.class).unwrap(SessionFactory.class).getStatistics()
                .getEntityStatistics(VolumeIoModeDecisionVO.class.getName());
    }

    /** volume → {digest, decided since, requested} */
    private Map<String, Object[]> rows() throws Exception {
        Map<String, Object[]> out = new java.util.TreeMap<>();
        try (Connection c = db.connect(); ResultSet rs = c.createStatement().executeQuery(
                "SELECT volumeUuid, contentDigest, createDate, requested FROM VolumeIoModeDecisionVO")) {
            while (rs.next()) out.put(rs.getString(1), new Object[]{rs.getString(2), rs.getTimestamp(3), rs.getString(4)});
        }
        assertThat(out).hasSize(2).allSatisfy((k, v) -> assertThat(v[0]).as("digest of " + k).isNotNull());
        return out;
    }
}
