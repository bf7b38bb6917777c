package org.zstack.aio.test.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The real 3-node Galera cluster that bin/lib/setup-galera.sh runs on loopback (once per test run, shared), with
 * one fresh database per test class. Node n answers SQL on 127.0.0.1:(AIO_GALERA_PORT + n), default 3341-3343.
 */
public final class GaleraCluster {

    public static final int BASE = Integer.parseInt(System.getenv().getOrDefault("AIO_GALERA_PORT", "3340"));
    static final Path SCRIPT = Path.of(System.getProperty("user.dir")).getParent().resolve("bin/lib/setup-galera.sh");

    private GaleraCluster() {
    }

    public static int port(int node) {
        return BASE + node;
    }

    /** The management server's URL when it should write through {@code first}, then fail over in ring order. */
    public static String sequentialUrl(String db, int first) {
        StringBuilder hosts = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            if (i > 0) hosts.append(',');
            hosts.append("127.0.0.1:").append(port((first - 1 + i) % 3 + 1));
        }
        return "jdbc:mariadb:sequential://" + hosts + "/" + db;
    }

    public static Connection node(int n, String db) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port(n) + "/" + db, "aio", "aio");
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION wsrep_sync_wait = 1");   // read what the cluster committed, not a lagging apply
        }
        return c;
    }

    /** Fails under CI=true, skips locally, when the cluster is not running (bin/lib/setup-galera.sh as root). */
    public static void require() {
        boolean up;
        try (Connection c = node(1, ""); Statement s = c.createStatement();
             var rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'wsrep_cluster_size'")) {
            up = rs.next() && rs.getInt(2) == 3;
        } catch (SQLException e) {
            up = false;
        }
        RealComponents.require(up, "a 3-node Galera cluster on 127.0.0.1:" + port(1) + "-" + port(3),
                "run bin/lib/setup-galera.sh as root");
    }

    public static String createDatabase() throws SQLException {
        String name = "aio_ha_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = node(1, ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
        }
        // a client that names the database in its URL is checked before any wsrep_sync_wait applies: wait until
        // every node applied the CREATE (a read with wsrep_sync_wait waits for the node to catch up)
        for (int n = 2; n <= 3; n++) {
            try (Connection c = node(n, ""); Statement s = c.createStatement();
                 var rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '" + name + "'")) {
                if (!rs.next() || rs.getInt(1) != 1) throw new AssertionError("database " + name + " not on node " + n);
            }
        }
        return name;
    }

    public static void dropDatabase(String name) throws SQLException {
        try (Connection c = node(1, ""); Statement s = c.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS `" + name + "`");
        }
    }

    /** Runs the project's script: "kill N", "start N", "status"; returns its output. */
    public static String script(String... args) throws Exception {
        String[] cmd = new String[args.length + 2];
        cmd[0] = "bash";
        cmd[1] = SCRIPT.toString();
        System.arraycopy(args, 0, cmd, 2, args.length);
        Path out = Files.createTempFile("galera", ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(240, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("setup-galera.sh " + String.join(" ", args) + " did not finish in 240 s");
        }
        String text = Files.readString(out);
        Files.delete(out);
        if (p.exitValue() != 0) throw new AssertionError("setup-galera.sh " + String.join(" ", args) + ": " + text);
        return text;
    }

    public static String status(int node, String variable) throws SQLException {
        try (Connection c = node(node, ""); Statement s = c.createStatement();
             var rs = s.executeQuery("SHOW GLOBAL STATUS LIKE '" + variable + "'")) {
            return rs.next() ? rs.getString(2) : null;
        }
    }
}
