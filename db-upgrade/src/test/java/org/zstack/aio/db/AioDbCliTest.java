package org.zstack.aio.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import java.util.List;

/** Settings, usage and the databases {@code migrate} refuses to touch. */
class AioDbCliTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void someButNotAllPlatformTablesWithoutHistoryIsRefusedAndLeftAlone(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            db.execute("CREATE TABLE `PrimaryStorageVO` (`uuid` VARCHAR(32) NOT NULL, PRIMARY KEY (`uuid`)) ENGINE=InnoDB",
                    "CREATE TABLE `VolumeVO` (`uuid` VARCHAR(32) NOT NULL, PRIMARY KEY (`uuid`)) ENGINE=InnoDB");
            TestDb.CliResult r = db.cli("migrate");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("not a platform 4.8.0 installation").contains("nothing was changed")
                    .contains("AccountVO");
            try (Connection c = db.connect()) {
                assertThat(Fixture.columns(c, List.of("flyway_schema_history")).get("flyway_schema_history")).isEmpty();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void foreignTablesWithoutHistoryAreRefused(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            db.execute("CREATE TABLE `SomethingElse` (`id` INT NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB");
            TestDb.CliResult r = db.cli("migrate");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("tables that are not the platform's").contains("nothing was changed");
        }
    }

    @Test
    void anUnreachableDatabaseIsOneClearLineAndExitCodeOne() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = AioDb.commandLine(new AioDb(Map.of())).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("migrate", "--db-url", "jdbc:mariadb://127.0.0.1:1/nowhere?connectTimeout=2000", "--db-user", "x");
        assertThat(code).isEqualTo(1);
        assertThat(err.toString()).startsWith("aio-db: Cannot reach the database");
    }

    @Test
    void noCommandIsAUsageError() {
        StringWriter err = new StringWriter();
        int code = AioDb.commandLine(new AioDb(Map.of())).setErr(new PrintWriter(err)).execute();
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("Missing command").contains("migrate").contains("validate");
    }

    @Test
    void settingsComeFromTheEnvironmentAndOptionsWin() {
        AioDb env = new AioDb(Map.of("AIO_DB_URL", "jdbc:mariadb://db:3306/zstack", "AIO_DB_USER", "zstack",
                "AIO_DB_PASSWORD", "secret"));
        AioDb.commandLine(env).parseArgs("info");
        assertThat(env.settings()).isEqualTo(new DatabaseSettings("jdbc:mariadb://db:3306/zstack", "zstack", "secret"));

        AioDb opts = new AioDb(Map.of("AIO_DB_URL", "jdbc:mariadb://db:3306/zstack"));
        AioDb.commandLine(opts).parseArgs("info", "--db-url", "jdbc:mariadb://other/x", "--db-user", "u", "--db-password", "p");
        assertThat(opts.settings()).isEqualTo(new DatabaseSettings("jdbc:mariadb://other/x", "u", "p"));

        AioDb h2 = new AioDb(Map.of("AIO_DATA_DIR", "/var/lib/aio"));
        AioDb.commandLine(h2).parseArgs("validate", "--data-dir", "/srv/aio");
        assertThat(h2.settings().embedded()).isTrue();
        assertThat(h2.settings().url()).startsWith("jdbc:h2:file:/srv/aio/aio;MODE=MariaDB");
        assertThat(h2.where()).isEqualTo("jdbc:h2:file:/srv/aio/aio (embedded H2)");
    }
}
