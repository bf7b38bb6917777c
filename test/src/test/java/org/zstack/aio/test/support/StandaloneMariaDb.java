package org.zstack.aio.test.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A MariaDB server of the test's own on a loopback port (its own data dir under target/), so a test can stop and
 * restart the database under a running management server without touching the shared one on 3306. Started the
 * same way every time ({@link #start()}): mariadbd with --no-defaults, so /etc/mysql is never read.
 */
public final class StandaloneMariaDb implements AutoCloseable {

    private final Path dir;
    private final int port;
    private Process process;

    private StandaloneMariaDb(Path dir, int port) {
        this.dir = dir;
        this.port = port;
    }

    /** A fresh data dir with the system tables, started; fails under CI=true if mariadbd cannot run here. */
    public static StandaloneMariaDb create(String name, int port) throws Exception {
        Path dir = Path.of("target", "mariadb-" + name).toAbsolutePath();
        run(List.of("rm", "-rf", dir.toString()));
        Files.createDirectories(dir.resolve("data"));
        boolean root = "root".equals(System.getProperty("user.name"));
        if (root) run(List.of("chown", "-R", "mysql:", dir.toString()));
        int rc = run(List.of("mariadb-install-db", "--no-defaults", "--datadir=" + dir.resolve("data"),
                "--auth-root-authentication-method=socket", "--skip-test-db", root ? "--user=mysql" : "--user=" + System.getProperty("user.name")));
        RealComponents.require(rc == 0, "mariadb-install-db", "run bin/lib/setup-mariadb.sh as root (installs MariaDB)");
        StandaloneMariaDb db = new StandaloneMariaDb(dir, port);
        db.start();
        return db;
    }

    /** Starts mariadbd and waits until it takes connections (the account aio/aio exists after the first start). */
    public void start() throws Exception {
        process = new ProcessBuilder("mariadbd", "--no-defaults", "--user=mysql", "--datadir=" + dir.resolve("data"),
                "--socket=" + dir.resolve("mysqld.sock"), "--pid-file=" + dir.resolve("mysqld.pid"),
                "--log-error=" + dir.resolve("error.log"), "--bind-address=127.0.0.1", "--port=" + port,
                "--skip-name-resolve", "--innodb-buffer-pool-size=64M", "--performance-schema=OFF",
                "--character-set-server=utf8mb4")
                .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (run(List.of("mariadb", "--no-defaults", "-S", dir.resolve("mysqld.sock").toString(), "-uroot", "-e",
                "CREATE USER IF NOT EXISTS 'aio'@'127.0.0.1' IDENTIFIED BY 'aio'; "
                        + "GRANT ALL ON *.* TO 'aio'@'127.0.0.1'; CREATE DATABASE IF NOT EXISTS aio")) != 0) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException("mariadbd on port " + port + " did not start; see " + dir.resolve("error.log"));
            }
            Thread.sleep(200);
        }
    }

    /** Stops the server as an operator would (SIGTERM, waits for it to exit). */
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }

    /** The database a management server uses (its own data dir beside; closing it drops nothing). */
    public TestDatabase database() throws IOException {
        return new TestDatabase("standalone", "jdbc:mariadb://127.0.0.1:" + port + "/aio", "aio", "aio",
                Files.createDirectories(dir.resolve("server")));
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/aio", "aio", "aio");
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) stop();
    }

    private static int run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return -1;
        }
        return p.exitValue();
    }
}
