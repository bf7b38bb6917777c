package org.zstack.aio.db;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import java.net.URISyntaxException;

/**
 * One throw-away database per test: a fresh MariaDB database {@code aio_upg_<random>} (dropped on close) or an
 * embedded H2 file database in a temp directory, reached by the CLI exactly as users reach it
 * ({@code --db-url/--db-user/--db-password} or {@code --data-dir}).
 * <p>MariaDB defaults to 127.0.0.1:3306 as aio/aio ({@code bin/lib/setup-mariadb.sh}); override with
 * AIO_TEST_MARIADB_URL / AIO_TEST_MARIADB_USER / AIO_TEST_MARIADB_PASSWORD. When it cannot be reached the MariaDB
 * cases are skipped, except under CI=true, where they fail.
 */
final class TestDb implements AutoCloseable {

    enum Kind { MARIADB, H2 }

    static final String MARIADB_URL = env("AIO_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/");
    static final String MARIADB_USER = env("AIO_TEST_MARIADB_USER", "aio");
    static final String MARIADB_PASSWORD = env("AIO_TEST_MARIADB_PASSWORD", "aio");

    final Kind kind;
    final String url;
    final String user;
    final String password;
    private final List<String> cliOptions;
    private final String mariadbName;
    private final Path h2Dir;

    private TestDb(Kind kind, String url, String user, String password, List<String> cliOptions, String mariadbName, Path h2Dir) {
        this.kind = kind;
        this.url = url;
        this.user = user;
        this.password = password;
        this.cliOptions = cliOptions;
        this.mariadbName = mariadbName;
        this.h2Dir = h2Dir;
    }

    static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v;
    }

    static TestDb open(Kind kind) {
        try {
            if (kind == Kind.H2) {
                Path dir = Files.createTempDirectory("aio_upg_h2_");
                return new TestDb(kind, DatabaseSettings.embeddedUrl(dir), "sa", "",
                        List.of("--data-dir", dir.toString()), null, dir);
            }
            String name = "aio_upg_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
            try (Connection c = mariadbServer(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE `" + name + "` CHARACTER SET utf8mb4");
            }
            String url = MARIADB_URL + name;
            return new TestDb(kind, url, MARIADB_USER, MARIADB_PASSWORD,
                    List.of("--db-url", url, "--db-user", MARIADB_USER, "--db-password", MARIADB_PASSWORD), name, null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The MariaDB server, or a skipped test (a failed one when CI=true). */
    private static Connection mariadbServer() {
        try {
            return DriverManager.getConnection(MARIADB_URL, MARIADB_USER, MARIADB_PASSWORD);
        } catch (SQLException e) {
            String why = "MariaDB is not reachable at " + MARIADB_URL + " as " + MARIADB_USER + " (" + e.getMessage()
                    + "); run bin/lib/setup-mariadb.sh as root";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(why + ". CI=true: MariaDB tests must run, not be skipped.");
            }
            Assumptions.abort(why + "; skipping the MariaDB case (it fails under CI=true).");
            throw new AssertionError("unreachable");
        }
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, user, password);
    }

    record CliResult(int exitCode, String out, String err) {
        String all() {
            return out + err;
        }
    }

    /** Runs {@code aio-db COMMAND <this database's options> EXTRA...} in-process, with an empty environment. */
    CliResult cli(String command, String... extra) {
        List<String> args = new ArrayList<>();
        args.add(command);
        args.addAll(cliOptions);
        args.addAll(Arrays.asList(extra));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = AioDb.commandLine(new AioDb(Map.of()))
                .setOut(new PrintWriter(out, true))
                .setErr(new PrintWriter(err, true))
                .execute(args.toArray(String[]::new));
        return new CliResult(code, out.toString(), err.toString());
    }

    /** {@code migrate} that must succeed. */
    CliResult migrate(String... extra) {
        CliResult r = cli("migrate", extra);
        Assertions.assertEquals(0, r.exitCode(), () -> "aio-db migrate failed on " + kind + ":\n" + r.all());
        return r;
    }

    void execute(String... sql) throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    @Override
    public void close() throws Exception {
        if (kind == Kind.MARIADB) {
            try (Connection c = DriverManager.getConnection(MARIADB_URL, MARIADB_USER, MARIADB_PASSWORD);
                 Statement s = c.createStatement()) {
                s.execute("DROP DATABASE IF EXISTS `" + mariadbName + "`");
            }
        } else {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                s.execute("SHUTDOWN");
            } catch (SQLException ignored) {
                // already closed
            }
            try (Stream<Path> files = Files.walk(h2Dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    @Override
    public String toString() {
        return kind.name();
    }

    // ---- the migrations as shipped ----

    static String migrationText(String file) {
        try (InputStream in = TestDb.class.getClassLoader().getResourceAsStream("db/migration/" + file)) {
            Assertions.assertNotNull(in, file);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static final String V480 = "V4.8.0__platform_baseline.sql";
    static final String V490 = "V4.9.0__aio_io_mode.sql";

    /** Every shipped migration file, in version order (later releases add files; the tests follow). */
    static final List<String> MIGRATIONS = shippedMigrations();
    /** The shipped migrations' versions, in order, e.g. [4.8.0, 4.9.0, 4.9.1]. */
    static final List<String> VERSIONS = MIGRATIONS.stream().map(f -> f.substring(1, f.indexOf("__"))).toList();
    static final String LATEST = VERSIONS.get(VERSIONS.size() - 1);

    /** How the CLI says that n migrations ran: "(2 migrations applied)". */
    static String applied(int n) {
        return "(" + n + " migration" + (n == 1 ? "" : "s") + " applied)";
    }

    /** How many shipped migrations come at or after {@code version}. */
    static int fromVersion(String version) {
        return VERSIONS.size() - VERSIONS.indexOf(version);
    }

    private static List<String> shippedMigrations() {
        try (Stream<Path> files = Files.list(Path.of(TestDb.class.getClassLoader().getResource("db/migration").toURI()))) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.matches("V[0-9.]+__.*\\.sql"))
                    .sorted(Comparator.comparing(TestDb::versionKey)).toList();
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String versionKey(String file) {
        StringBuilder b = new StringBuilder();
        for (String part : file.substring(1, file.indexOf("__")).split("\\.")) b.append(String.format("%06d", Integer.parseInt(part)));
        return b.toString();
    }

    /** The statements of a migration file (comment lines dropped, split at a ';' that ends a line). */
    static List<String> statements(String file) {
        StringBuilder sb = new StringBuilder();
        for (String line : migrationText(file).split("\n")) {
            if (!line.stripLeading().startsWith("--")) {
                sb.append(line).append('\n');
            }
        }
        List<String> out = new ArrayList<>();
        for (String s : sb.toString().split(";\\s*\n")) {
            if (!s.isBlank()) {
                out.add(s.strip().replaceAll(";$", ""));
            }
        }
        return out;
    }

    /** A copy of the shipped migrations in a temp directory, for {@code --locations filesystem:DIR}. */
    static Path copyOfMigrations() throws IOException {
        Path dir = Files.createTempDirectory("aio_upg_migrations_");
        for (String m : MIGRATIONS) Files.writeString(dir.resolve(m), migrationText(m));
        return dir;
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
