package org.zstack.aio.test.upgrade;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.zstack.aio.db.DatabaseSettings;
import org.zstack.aio.db.SchemaUpgrade;
import org.zstack.aio.test.support.RunningServer;
import org.zstack.aio.test.support.TestDatabase;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11 defect 1: GlobalConfigVO and ResourceConfigVO belong to the whole platform. A 4.8.0 installation holding
 * other categories' configs (and kvm configs the plugin does not define) upgrades and boots twice, and every one of
 * those rows is still there with every column byte for byte.
 */
class PlatformConfigsKeptTest {

    static final String TS = "2024-03-01 10:00:00.123";

    @ParameterizedTest
    @ValueSource(strings = {"h2", "mariadb"})
    void bootKeepsEveryConfigRowThePluginDoesNotDefine(String kind) throws Exception {
        try (TestDatabase db = TestDatabase.of(kind)) {
            SchemaUpgrade.configure(new DatabaseSettings(db.url(), db.user(), db.password()),
                    List.of(SchemaUpgrade.DEFAULT_LOCATION), "4.8.0").load().migrate();
            try (Connection c = db.connect()) {
                PreparedStatement g = c.prepareStatement("INSERT INTO GlobalConfigVO (id, category, name, description,"
                        + " defaultValue, value) VALUES (?, ?, ?, ?, ?, ?)");
                global(g, 101, "host", "cpu.overProvisioning.ratio", "CPU over-provisioning ratio", "10", "4");
                global(g, 102, "storage", "qcow2.allocation", "qcow2 allocation", "none", "metadata");
                global(g, 103, "kvm", "reservedMemory", "memory reserved on a host ", "512M", "1G");
                global(g, 104, "vm", "deletionPolicy", "策略 – unicode kept", "Delay", "Direct");
                global(g, 105, "mevoco", "distributeImage", null, "true", null);
                PreparedStatement r = c.prepareStatement("INSERT INTO ResourceConfigVO (uuid, resourceUuid, resourceType,"
                        + " category, name, value, createDate, lastOpDate) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
                resource(r, "rc01", "host", "HostVO", "host", "cpu.overProvisioning.ratio", "2");
                resource(r, "rc02", "ps", "PrimaryStorageVO", "storage", "qcow2.allocation", "full");
                resource(r, "rc03", "ps", "PrimaryStorageVO", "ceph", "imageCache.cleanup.interval", "3600");
                resource(r, "rc04", "vol", "VolumeVO", "kvm", "vm.blkio.weight", "500");
                resource(r, "rc05", "vm", "VmInstanceVO", "vm", "numa", " true ");
            }
            var globalsBefore = rows(db, "GlobalConfigVO", "id");
            var resourcesBefore = rows(db, "ResourceConfigVO", "uuid");
            assertThat(globalsBefore).hasSize(5);
            assertThat(resourcesBefore).hasSize(5);

            RunningServer.start(db).close();
            RunningServer.start(db).close();

            var globalsAfter = rows(db, "GlobalConfigVO", "id");
            var resourcesAfter = rows(db, "ResourceConfigVO", "uuid");
            for (var e : globalsBefore.entrySet()) {
                assertThat(globalsAfter).as("GlobalConfigVO row " + e.getKey()).containsEntry(e.getKey(), e.getValue());
            }
            assertThat(resourcesAfter).as("ResourceConfigVO").containsAllEntriesOf(resourcesBefore);
            // the plugin's own rows were added beside them
            assertThat(globalsAfter.values()).anySatisfy(row -> assertThat(row).contains("category=kvm", "name=vm.ioMode"));
        }
    }

    private static void global(PreparedStatement g, int id, String cat, String name, String desc, String def, String value)
            throws Exception {
        g.setInt(1, id);
        g.setString(2, cat);
        g.setString(3, name);
        g.setString(4, desc);
        g.setString(5, def);
        g.setString(6, value);
        g.executeUpdate();
    }

    private static void resource(PreparedStatement r, String id, String res, String type, String cat, String name,
                                 String value) throws Exception {
        r.setString(1, String.format("%-32s", id).replace(' ', '0'));
        r.setString(2, String.format("%-32s", res).replace(' ', '0'));
        r.setString(3, type);
        r.setString(4, cat);
        r.setString(5, name);
        r.setString(6, value);
        r.setString(7, TS);
        r.setString(8, TS);
        r.executeUpdate();
    }

    /** Every column of every row as the database returns it (hex of the bytes, so nothing is normalised). */
    static TreeMap<String, List<String>> rows(TestDatabase db, String table, String key) throws Exception {
        TreeMap<String, List<String>> out = new TreeMap<>();
        try (Connection c = db.connect(); ResultSet rs = c.createStatement().executeQuery("SELECT * FROM " + table)) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    String v = rs.getString(i);
                    row.add(md.getColumnLabel(i).toLowerCase() + "=" + (v == null ? "NULL" : v));
                    row.add(v == null ? "" : java.util.HexFormat.of().formatHex(v.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
                }
                out.put(rs.getString(key), row);
            }
        }
        return out;
    }
}
