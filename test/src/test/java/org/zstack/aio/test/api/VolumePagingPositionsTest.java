package org.zstack.aio.test.api;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.Fixture;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pages past the first thousand volumes start from a kept position (QueryExecutor, QueryCounts): each page must be
 * exactly the rows the plain OFFSET gives, also where many volumes share a createDate (ties broken by uuid) and right
 * after a volume is inserted before the page (the positions move with it).
 */
class VolumePagingPositionsTest {

    @Test
    void aPageFromAKeptPositionIsThePageTheOffsetGives() throws Exception {
        try (TestDatabase db = TestDatabase.mariadb();
             RunningServer server = RunningServer.start(db, Map.of("aio.embedded-agent", "false", "aio.tracker.enabled", "false"))) {
            Fixture f = new Fixture(server);
            String admin = f.adminSession();
            String ps = f.primaryStorage(admin, "local", "LocalStorage", "/var/tmp/aio-positions");
            try (Connection c = db.connect()) {
                String account;
                try (ResultSet r = c.createStatement().executeQuery("SELECT uuid FROM AccountVO WHERE name = 'admin'")) {
                    r.next();
                    account = r.getString(1);
                }
                c.setAutoCommit(false);
                try (PreparedStatement s = c.prepareStatement("INSERT INTO VolumeVO (uuid, name, primaryStorageUuid, format, size, "
                        + "accountUuid, createDate) VALUES (?,?,?,'qcow2',1048576,?, DATE_ADD('2026-01-01', INTERVAL ? SECOND))")) {
                    for (int i = 0; i < 2600; i++) {
                        s.setString(1, String.format("f0%030x", (i * 7919) % 2600)); // uuids not in insert order
                        s.setString(2, "p" + i);
                        s.setString(3, ps);
                        s.setString(4, account);
                        s.setInt(5, i / 7); // seven volumes per second: ties on createDate across position boundaries
                        s.addBatch();
                    }
                    s.executeBatch();
                }
                c.commit();
                c.setAutoCommit(true);
                for (int start : new int[]{999, 1000, 1001, 1998, 2000, 2555, 2590, 2600}) {
                    assertThat(page(f, admin, start)).as("page at " + start).isEqualTo(expected(c, start));
                }
                // one volume before all others: every row moves down by one, and so must the pages
                c.createStatement().executeUpdate("INSERT INTO VolumeVO (uuid, name, primaryStorageUuid, format, size, accountUuid,"
                        + " createDate) VALUES ('f1000000000000000000000000000000', 'first', '" + ps + "', 'qcow2', 1048576, '"
                        + account + "', '2025-12-31')");
                for (int start : new int[]{1000, 2001}) {
                    assertThat(page(f, admin, start)).as("page at " + start + " after an insert").isEqualTo(expected(c, start));
                }
            }
        }
    }

    private static List<String> page(Fixture f, String admin, int start) {
        var r = f.http.get("/v1/volumes?limit=50&replyWithCount=true&start=" + start, admin);
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        List<String> out = new ArrayList<>();
        r.body().path("inventories").forEach(v -> out.add(v.path("uuid").asText()));
        return out;
    }

    private static List<String> expected(Connection c, int start) throws Exception {
        List<String> out = new ArrayList<>();
        try (ResultSet r = c.createStatement().executeQuery("SELECT uuid FROM VolumeVO ORDER BY createDate, uuid LIMIT 50 OFFSET " + start)) {
            while (r.next()) out.add(r.getString(1));
        }
        return out;
    }
}
