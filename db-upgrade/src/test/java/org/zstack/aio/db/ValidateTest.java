package org.zstack.aio.db;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code validate} (and {@code migrate}) against an edited migration or a database newer than this build. */
class ValidateTest {

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void anEditedMigrationIsReportedWithFlywaysMessageAndMigrateRefuses(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            db.migrate();
            Path dir = TestDb.copyOfMigrations();
            try {
                assertThat(db.cli("validate", "--locations", "filesystem:" + dir).exitCode())
                        .as("an unedited copy validates").isZero();
                Files.writeString(dir.resolve(TestDb.V490),
                        TestDb.migrationText(TestDb.V490).replace("'native'", "'io_uring'"));

                TestDb.CliResult r = db.cli("validate", "--locations", "filesystem:" + dir);
                assertThat(r.exitCode()).isEqualTo(1);
                assertThat(r.err())
                        .contains("aio-db validate: INVALID. The database does not match this build's migrations")
                        .contains("Migration checksum mismatch for migration version 4.9.0")
                        .contains("Applied to database").contains("Resolved locally");

                List<String> history;
                try (Connection c = db.connect()) {
                    history = Fixture.rows(c, "flyway_schema_history", List.of("version", "checksum", "success"));
                }
                TestDb.CliResult m = db.cli("migrate", "--locations", "filesystem:" + dir);
                assertThat(m.exitCode()).isEqualTo(1);
                assertThat(m.err()).contains("does not match this build's migrations")
                        .contains("Migration checksum mismatch for migration version 4.9.0");
                try (Connection c = db.connect()) {
                    assertThat(Fixture.rows(c, "flyway_schema_history", List.of("version", "checksum", "success")))
                            .isEqualTo(history);
                }
                assertThat(db.cli("validate").exitCode()).as("the shipped migrations still match").isZero();
            } finally {
                TestDb.deleteTree(dir);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void aDatabaseNewerThanThisBuildIsReportedAndMigrateRefuses(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            Path dir = TestDb.copyOfMigrations();
            try {
                Files.writeString(dir.resolve("V5.0.0__next_release.sql"),
                        "CREATE TABLE IF NOT EXISTS `NextReleaseVO` (`id` INT NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB;\n");
                db.migrate("--locations", "filesystem:" + dir);
            } finally {
                TestDb.deleteTree(dir);
            }
            TestDb.CliResult r = db.cli("validate");
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("does not match this build's migrations")
                    .contains("Detected applied migration not resolved locally: 5.0.0");
            TestDb.CliResult m = db.cli("migrate");
            assertThat(m.exitCode()).isEqualTo(1);
            assertThat(m.err()).contains("Detected applied migration not resolved locally: 5.0.0");
            assertThat(db.cli("info").out()).containsPattern("5\\.0\\.0 .*\\| Future");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void aValidDatabaseWithPendingMigrationsValidates(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            TestDb.CliResult empty = db.cli("validate");
            assertThat(empty.exitCode()).as(empty.all()).isZero();
            db.migrate("--target", "4.8.0");
            TestDb.CliResult r = db.cli("validate");
            assertThat(r.exitCode()).as(r.all()).isZero();
            assertThat(r.out()).contains("Valid:");
        }
    }
}
