package org.zstack.aio.test.badinput;

import org.zstack.aio.test.support.TestDatabase;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Everything a refused call could have changed: every row of every table (sorted, every column as text) and every
 * file under the storage directories the agent writes to. Two snapshots are equal when nothing changed. The audit
 * trail counts only its records of changes: a refused login is recorded there on purpose (who tried, from where).
 */
final class StateSnapshot {

    private StateSnapshot() {
    }

    static Map<String, List<String>> take(TestDatabase db, List<Path> storageDirs) {
        Map<String, List<String>> out = new TreeMap<>();
        try (Connection c = db.connect()) {
            for (String table : tables(c)) {
                List<String> rows = new ArrayList<>();
                String where = table.equalsIgnoreCase("AuditVO") ? " WHERE success = TRUE" : "";
                try (ResultSet rs = c.createStatement().executeQuery("SELECT * FROM " + table + where)) {
                    ResultSetMetaData md = rs.getMetaData();
                    while (rs.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= md.getColumnCount(); i++) row.append(rs.getString(i)).append('\u0001');
                        rows.add(row.toString());
                    }
                }
                rows.sort(null);
                out.put("table " + table.toLowerCase(), rows);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        for (Path dir : storageDirs) {
            try (Stream<Path> files = Files.walk(dir)) {
                out.put("files " + dir, files.map(p -> p + " " + p.toFile().length()).sorted().toList());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return out;
    }

    private static List<String> tables(Connection c) throws SQLException {
        List<String> names = new ArrayList<>();
        DatabaseMetaData md = c.getMetaData();
        try (ResultSet rs = md.getTables(c.getCatalog(), c.getSchema(), "%", new String[]{"TABLE"})) {
            while (rs.next()) names.add(rs.getString("TABLE_NAME"));
        }
        names.sort(null);
        return names;
    }
}
