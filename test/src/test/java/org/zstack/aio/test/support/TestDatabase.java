package org.zstack.aio.test.support;

import org.zstack.aio.db.DatabaseSettings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.UUID;

/** A fresh, empty database for one test class: an H2 file in a temp dir, or a new database on the real MariaDB. */
public record TestDatabase(String kind, String url, String user, String password, Path dataDir) implements AutoCloseable {

    static final String MARIADB = System.getenv().getOrDefault("AIO_TEST_MARIADB", "jdbc:mariadb://127.0.0.1:3306/");
    static final String MARIADB_USER = System.getenv().getOrDefault("AIO_TEST_MARIADB_USER", "aio");
    static final String MARIADB_PASSWORD = System.getenv().getOrDefault("AIO_TEST_MARIADB_PASSWORD", "aio");

    public static TestDatabase h2() throws Exception {
        Path dir = Files.createTempDirectory("aio-it-h2");
        return new TestDatabase("h2", DatabaseSettings.embeddedUrl(dir), "sa", "", dir);
    }

    public static TestDatabase mariadb() throws Exception {
        String name = "aio_it_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(MARIADB, MARIADB_USER, MARIADB_PASSWORD)) {
            c.createStatement().execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
        } catch (SQLException e) {
            RealComponents.require(false, "MariaDB at " + MARIADB + " (" + e.getMessage() + ")",
                    "run bin/lib/setup-mariadb.sh as root");
        }
        return new TestDatabase("mariadb", MARIADB + name, MARIADB_USER, MARIADB_PASSWORD, Files.createTempDirectory("aio-it-maria"));
    }

    public static TestDatabase of(String kind) throws Exception {
        return "mariadb".equals(kind) ? mariadb() : h2();
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    /** Configs as a fresh install has them: every global config at its default, no override on any resource. */
    public void resetConfigs() throws SQLException {
        try (Connection c = connect()) {
            c.createStatement().executeUpdate("UPDATE GlobalConfigVO SET value = defaultValue");
            c.createStatement().executeUpdate("DELETE FROM ResourceConfigVO");
        }
    }

    @Override
    public void close() throws Exception {
        if ("mariadb".equals(kind)) {
            String name = url.substring(url.lastIndexOf('/') + 1);
            try (Connection c = DriverManager.getConnection(MARIADB, MARIADB_USER, MARIADB_PASSWORD)) {
                c.createStatement().execute("DROP DATABASE IF EXISTS `" + name + "`");
            }
        }
    }
}
