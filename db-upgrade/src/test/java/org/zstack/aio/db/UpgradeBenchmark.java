package org.zstack.aio.db;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Not a unit test (surefire runs *Test only): times {@code aio-db migrate} from a 4.8.0 MariaDB baseline holding
 * 100,000 volumes on 1,000 primary storages (200 of each type) to latest. Target: under 60 s.
 * <pre>
 *   mvn -B -q -o -pl db-upgrade test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test
 *   java -cp db-upgrade/target/test-classes:db-upgrade/target/classes:$(cat db-upgrade/target/cp.txt) \
 *        org.zstack.aio.db.UpgradeBenchmark [--volumes N] [--storages-per-type N] [--keep-baseline]
 * </pre>
 * MariaDB as in the tests (AIO_TEST_MARIADB_URL/USER/PASSWORD, default 127.0.0.1:3306 aio/aio). With
 * {@code --keep-baseline} the upgrade is not run and the baseline database is kept, to time {@code bin/aio-db}.
 */
public final class UpgradeBenchmark {

    public static void main(String[] args) throws Exception {
        List<String> a = Arrays.asList(args);
        int volumes = intArg(a, "--volumes", 100_000);
        int perType = intArg(a, "--storages-per-type", 200);
        boolean keep = a.contains("--keep-baseline");
        AioDb.quietFlywayLogging();
        String name = "aio_upg_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
        try (Connection c = DriverManager.getConnection(TestDb.MARIADB_URL, TestDb.MARIADB_USER, TestDb.MARIADB_PASSWORD);
             Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
        }
        String url = TestDb.MARIADB_URL + name;
        String[] db = {"--db-url", url, "--db-user", TestDb.MARIADB_USER, "--db-password", TestDb.MARIADB_PASSWORD};
        try {
            run("migrate", db, "--target", "4.8.0");
            Fixture f = new Fixture(volumes, perType);
            long t0 = System.nanoTime();
            try (Connection c = DriverManager.getConnection(url, TestDb.MARIADB_USER, TestDb.MARIADB_PASSWORD)) {
                f.load(c);
                System.out.printf("baseline %s: %d volumes, %d primary storages, %d resource configs (loaded in %.1f s)%n", name,
                        Fixture.count(c, "SELECT COUNT(*) FROM VolumeVO"), Fixture.count(c, "SELECT COUNT(*) FROM PrimaryStorageVO"),
                        Fixture.count(c, "SELECT COUNT(*) FROM ResourceConfigVO"), (System.nanoTime() - t0) / 1e9);
            }
            if (keep) {
                System.out.println("kept; time the tool with: time bin/aio-db migrate " + String.join(" ", db));
                return;
            }
            long start = System.nanoTime();
            String out = run("migrate", db);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.print(out);
            try (Connection c = DriverManager.getConnection(url, TestDb.MARIADB_USER, TestDb.MARIADB_PASSWORD)) {
                long pins = Fixture.count(c, "SELECT COUNT(*) FROM ResourceConfigVO WHERE category='kvm' AND name='vm.ioMode'"
                        + " AND value='native' AND resourceType='PrimaryStorageVO'");
                System.out.printf("native pins on PrimaryStorageVO: %d (expected %d + 1 pre-existing NFS row)%n", pins, f.pinnedStorages.size());
            }
            System.out.printf("UPGRADE 4.8.0 -> " + TestDb.LATEST + ": %.2f s (aio-db migrate in-process: connect, validate, migrate)%n", seconds);
        } finally {
            if (!keep) {
                try (Connection c = DriverManager.getConnection(TestDb.MARIADB_URL, TestDb.MARIADB_USER, TestDb.MARIADB_PASSWORD);
                     Statement s = c.createStatement()) {
                    s.execute("DROP DATABASE IF EXISTS `" + name + "`");
                }
            }
        }
    }

    private static String run(String command, String[] db, String... extra) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = new String[1 + db.length + extra.length];
        args[0] = command;
        System.arraycopy(db, 0, args, 1, db.length);
        System.arraycopy(extra, 0, args, 1 + db.length, extra.length);
        int code = AioDb.commandLine(new AioDb(Map.of())).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)).execute(args);
        if (code != 0) {
            throw new IllegalStateException("aio-db " + command + " failed: " + out + err);
        }
        return out.toString();
    }

    private static int intArg(List<String> a, String name, int dflt) {
        int i = a.indexOf(name);
        return i >= 0 && i + 1 < a.size() ? Integer.parseInt(a.get(i + 1)) : dflt;
    }
}
