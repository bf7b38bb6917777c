package org.zstack.aio.db;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A platform 4.8.0 installation holding data (deterministic: the same fixture in two databases gives the same
 * rows), and row-set snapshots to prove what an upgrade changed.
 */
final class Fixture {

    static final List<String> PS_TYPES = List.of("LocalStorage", "NFS", "SharedMountPoint", "SharedBlock", "Ceph");
    static final String TS = "2024-03-01 10:00:00.000";

    final int volumes;
    final int storagesPerType;
    /** SharedBlock storages that must get the native pin (all but the one with its own vm.ioMode row). */
    final Set<String> pinnedStorages = new TreeSet<>();
    /** The SharedBlock storage whose own vm.ioMode = threads must survive. */
    final String sharedBlockWithOwnRow;

    Fixture(int volumes, int storagesPerType) {
        this.volumes = volumes;
        this.storagesPerType = storagesPerType;
        for (int n = 0; n < storagesPerType; n++) {
            pinnedStorages.add(ps("SharedBlock", n));
        }
        sharedBlockWithOwnRow = ps("SharedBlock", 0);
        pinnedStorages.remove(sharedBlockWithOwnRow);
    }

    static String id(String prefix, int n) {
        return String.format("%s%0" + (32 - prefix.length()) + "d", prefix, n);
    }

    static String ps(String type, int n) {
        return id("ps" + PS_TYPES.indexOf(type) + "x", n);
    }

    String volumeUuid(int n) {
        return id("vol", n);
    }

    String psOfVolume(int n) {
        return ps(PS_TYPES.get(n % PS_TYPES.size()), (n / PS_TYPES.size()) % storagesPerType);
    }

    void load(Connection c) throws SQLException {
        boolean auto = c.getAutoCommit();
        c.setAutoCommit(false);
        List<List<Object>> rows = new ArrayList<>();
        rows.add(List.of(id("acc", 0), "admin", "x", "SystemAdmin", TS, TS));
        rows.add(List.of(id("acc", 1), "tenant", "y", "Normal", TS, TS));
        insert(c, "AccountVO", "uuid,name,password,type,createDate,lastOpDate", rows);
        insert(c, "SessionVO", "uuid,accountUuid,expiredDate,createDate",
                List.of(List.of(id("ses", 0), id("acc", 0), "2030-01-01 00:00:00.000", TS)));
        insert(c, "GlobalConfigVO", "id,category,name,description,defaultValue,value", List.of(
                List.of(1, "kvm", "vm.cacheMode", "disk cache", "none", "none"),
                List.of(2, "host", "cpu.overProvisioning.ratio", "ratio", "10", "4"),
                List.of(3, "storage", "qcow2.allocation", "allocation", "none", "metadata")));
        rows = new ArrayList<>();
        for (int h = 0; h < 3; h++) {
            rows.add(List.of(id("host", h), "host-" + h, "10.0.0." + (h + 1), 7070, "Connected", TS, TS));
        }
        insert(c, "HostVO", "uuid,name,managementIp,agentPort,status,createDate,lastOpDate", rows);
        rows = new ArrayList<>();
        for (String type : PS_TYPES) {
            for (int n = 0; n < storagesPerType; n++) {
                rows.add(List.of(ps(type, n), type + "-" + n, type, type.toLowerCase(Locale.ROOT) + "://store/" + n, "Connected", TS, TS));
            }
        }
        insert(c, "PrimaryStorageVO", "uuid,name,type,url,status,createDate,lastOpDate", rows);
        int vms = Math.max(1, volumes / 20);
        rows = new ArrayList<>();
        for (int v = 0; v < vms; v++) {
            rows.add(List.of(id("vm", v), "vm-" + v, id("host", v % 3), v % 2 == 0 ? "Running" : "Stopped", 1073741824L, 2,
                    id("acc", v % 2), TS, TS));
        }
        insert(c, "VmInstanceVO", "uuid,name,hostUuid,state,memorySize,cpuNum,accountUuid,createDate,lastOpDate", rows);
        rows = new ArrayList<>();
        for (int n = 0; n < volumes; n++) {
            boolean attached = n % 3 == 0;
            List<Object> r = new ArrayList<>();
            Collections.addAll(r, volumeUuid(n), "volume-" + n, psOfVolume(n), attached ? id("vm", n % vms) : null,
                    attached ? n % 8 : null, "/store/" + n + ".qcow2", n % 2 == 0 ? "qcow2" : "raw", 10737418240L + n,
                    n % 5 == 0 ? null : (long) n * 4096, id("acc", n % 2), TS, TS);
            rows.add(r);
            if (rows.size() == 1000) {
                insert(c, "VolumeVO", VOLUME_COLUMNS, rows);
                rows.clear();
            }
        }
        insert(c, "VolumeVO", VOLUME_COLUMNS, rows);
        // ResourceConfigVO rows that must stay as they are
        rows = new ArrayList<>();
        int rc = 0;
        rows.add(rcRow(rc++, sharedBlockWithOwnRow, "PrimaryStorageVO", "kvm", "vm.ioMode", "threads"));
        rows.add(rcRow(rc++, ps("SharedBlock", 1), "PrimaryStorageVO", "kvm", "vm.ioMode.native.allowFalloc", "true"));
        rows.add(rcRow(rc++, ps("NFS", 0), "PrimaryStorageVO", "kvm", "vm.ioMode", "native"));
        rows.add(rcRow(rc++, ps("LocalStorage", 0), "PrimaryStorageVO", "storage", "qcow2.allocation", "full"));
        rows.add(rcRow(rc++, ps("Ceph", 0), "PrimaryStorageVO", "ceph", "imageCache.cleanup.interval", "3600"));
        rows.add(rcRow(rc++, id("host", 0), "HostVO", "host", "cpu.overProvisioning.ratio", "2"));
        for (int n = 0; n < Math.min(volumes, 500); n++) {
            rows.add(rcRow(rc++, volumeUuid(n), "VolumeVO", "kvm", "vm.cacheMode", n % 2 == 0 ? "writeback" : "directsync"));
        }
        // a volume-level vm.ioMode on a SharedBlock volume: its storage is still pinned
        int sbVolume = PS_TYPES.indexOf("SharedBlock");
        rows.add(rcRow(rc++, volumeUuid(sbVolume), "VolumeVO", "kvm", "vm.ioMode", "threads"));
        insert(c, "ResourceConfigVO", "uuid,resourceUuid,resourceType,category,name,value,createDate,lastOpDate", rows);
        c.commit();
        c.setAutoCommit(auto);
    }

    static final String VOLUME_COLUMNS =
            "uuid,name,primaryStorageUuid,vmInstanceUuid,deviceId,installPath,format,size,actualSize,accountUuid,createDate,lastOpDate";

    private static List<Object> rcRow(int n, String resource, String type, String cat, String name, String value) {
        return List.of(id("rc", n), resource, type, cat, name, value, TS, TS);
    }

    /** One multi-row INSERT per call (callers keep it to a few thousand rows). */
    static void insert(Connection c, String table, String columns, List<List<Object>> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        int cols = columns.split(",").length;
        String one = "(" + String.join(",", Collections.nCopies(cols, "?")) + ")";
        String sql = "INSERT INTO `" + table + "` (" + quoteAll(columns) + ") VALUES "
                + String.join(",", Collections.nCopies(rows.size(), one));
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int i = 1;
            for (List<Object> r : rows) {
                for (Object v : r) {
                    ps.setObject(i++, v);
                }
            }
            ps.executeUpdate();
        }
    }

    static String quoteAll(String columns) {
        List<String> q = new ArrayList<>();
        for (String col : columns.split(",")) {
            q.add("`" + col + "`");
        }
        return String.join(",", q);
    }

    // ---- snapshots ----

    /** Column names of each table (as the database reports them), for the given tables. */
    static Map<String, List<String>> columns(Connection c, List<String> tables) throws SQLException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        DatabaseMetaData md = c.getMetaData();
        for (String t : tables) {
            List<String> cols = new ArrayList<>();
            String name = md.storesLowerCaseIdentifiers() ? t.toLowerCase(Locale.ROOT) : t;
            try (ResultSet rs = md.getColumns(c.getCatalog(), c.getSchema(), name, "%")) {
                while (rs.next()) {
                    cols.add(rs.getString("COLUMN_NAME") + " " + rs.getString("TYPE_NAME") + "(" + rs.getInt("COLUMN_SIZE")
                            + ") " + (rs.getInt("NULLABLE") == DatabaseMetaData.columnNullable ? "NULL" : "NOT NULL"));
                }
            }
            out.put(t, cols);
        }
        return out;
    }

    /** Every row of each table, restricted to the given columns, as sorted strings. */
    static Map<String, List<String>> rows(Connection c, Map<String, List<String>> columns) throws SQLException {
        Map<String, List<String>> out = new TreeMap<>();
        for (Map.Entry<String, List<String>> e : columns.entrySet()) {
            List<String> names = e.getValue().stream().map(d -> d.substring(0, d.indexOf(' '))).toList();
            out.put(e.getKey(), rows(c, e.getKey(), names));
        }
        return out;
    }

    static List<String> rows(Connection c, String table, List<String> cols) throws SQLException {
        return rows(c, table, cols, null);
    }

    /**
     * Flyway's history in the order the migrations were applied (installed_rank; "4.9.10" after "4.9.9", which a
     * plain SELECT does not promise), as "col|col".
     */
    static List<String> history(Connection c, String... cols) throws SQLException {
        List<String> withRank = new ArrayList<>(List.of("installed_rank"));
        withRank.addAll(List.of(cols));
        return rows(c, "flyway_schema_history", withRank, "installed_rank").stream()
                .map(r -> r.substring(r.indexOf('|') + 1)).toList();
    }

    /** The rows as "a|b|c", in {@code orderBy}'s order (a column), or the database's when null. */
    static List<String> rows(Connection c, String table, List<String> cols, String orderBy) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT " + quoteAll(String.join(",", cols)) + " FROM `" + table + "`"
                                           + (orderBy == null ? "" : " ORDER BY " + quoteAll(orderBy)))) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    sb.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(sb.toString());
            }
        }
        if (orderBy == null) Collections.sort(out); // the database's order is no order; an ORDER BY is kept (rank 10 after 9)
        return out;
    }

    static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
