package org.zstack.aio.db;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An upgrade to 4.9.0 that stops part way — a statement fails (Flyway records a failed migration on MariaDB,
 * whose DDL is not transactional) or the process dies between statements (no history entry at all) — is
 * re-run by {@code aio-db migrate} to exactly the end state of an uninterrupted upgrade, without duplicate rows.
 */
class InterruptedUpgradeTest {

    enum Interruption {
        /** statement k+1 fails (injected through a test-only migration location) */
        FAILED_STATEMENT,
        /** the first k statements ran, then the process died before Flyway wrote anything */
        KILLED
    }

    static final Fixture FIXTURE = new Fixture(1500, 3);
    static final int STATEMENTS = TestDb.statements(TestDb.V490).size();
    private static final Map<TestDb.Kind, Map<String, List<String>>> REFERENCE = new EnumMap<>(TestDb.Kind.class);

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (TestDb.Kind kind : TestDb.Kind.values()) {
            for (int k = 0; k <= STATEMENTS; k++) {
                if (k < STATEMENTS) {
                    out.add(Arguments.of(kind, Interruption.FAILED_STATEMENT, k));
                }
                if (k > 0) {
                    out.add(Arguments.of(kind, Interruption.KILLED, k));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} after {2} statement(s)")
    @MethodSource("cases")
    void reRunReachesTheSameEndStateAsAnUninterruptedUpgrade(TestDb.Kind kind, Interruption how, int done) throws Exception {
        assertThat(STATEMENTS).as("statements in " + TestDb.V490).isEqualTo(4);
        Map<String, List<String>> reference = reference(kind);
        try (TestDb db = baselineWithData(kind)) {
            if (how == Interruption.FAILED_STATEMENT) {
                Path dir = injectedFailureAfter(done);
                try {
                    TestDb.CliResult failed = db.cli("migrate", "--locations", "filesystem:" + dir);
                    assertThat(failed.exitCode()).isEqualTo(1);
                    assertThat(failed.err()).contains("AioInjectedFailure").contains("run `aio-db migrate` again");
                } finally {
                    TestDb.deleteTree(dir);
                }
                if (kind == TestDb.Kind.MARIADB) {
                    try (Connection c = db.connect()) {
                        assertThat(Fixture.count(c, "SELECT COUNT(*) FROM `flyway_schema_history` WHERE `version` = '4.9.0' AND `success` = 0"))
                                .as("Flyway marks the migration failed on MariaDB").isOne();
                        // MariaDB's DDL committed at once: the re-run meets the half-done schema
                        assertThat(Fixture.columns(c, List.of("VolumeVO")).get("VolumeVO").toString().toLowerCase())
                                .as("preallocation column left by the interrupted run")
                                .matches(cols -> cols.contains("preallocation ") == (done >= 1));
                    }
                    assertThat(db.cli("info").out()).containsPattern("4\\.9\\.0 .*\\| Failed");
                    TestDb.CliResult v = db.cli("validate");
                    assertThat(v.exitCode()).isEqualTo(1);
                    assertThat(v.err()).contains("failed migration to version 4.9.0");
                }
            } else {
                List<String> statements = TestDb.statements(TestDb.V490);
                for (int i = 0; i < done; i++) {
                    db.execute(statements.get(i));
                }
            }

            TestDb.CliResult r = db.migrate();
            if (how == Interruption.FAILED_STATEMENT && kind == TestDb.Kind.MARIADB) {
                assertThat(r.out()).contains("Migration 4.9.0 had failed (interrupted upgrade): removed from the history, re-running it.");
            }
            assertThat(r.out()).contains("to version " + TestDb.LATEST + " " + TestDb.applied(TestDb.fromVersion("4.9.0")));
            assertThat(endState(db)).isEqualTo(reference);
            assertThat(db.migrate().out()).contains("nothing to do");
            assertThat(endState(db)).isEqualTo(reference);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void aFailedMigrationIsNotRepairedWhenAnAppliedOneWasEdited(TestDb.Kind kind) throws Exception {
        try (TestDb db = baselineWithData(kind)) {
            Path dir = injectedFailureAfter(2);
            try {
                assertThat(db.cli("migrate", "--locations", "filesystem:" + dir).exitCode()).isEqualTo(1);
                Files.writeString(dir.resolve(TestDb.V490), TestDb.migrationText(TestDb.V490));
                Files.writeString(dir.resolve(TestDb.V480), TestDb.migrationText(TestDb.V480) + "\n-- edited after release\n");
                List<String> history;
                try (Connection c = db.connect()) {
                    history = Fixture.rows(c, "flyway_schema_history", List.of("version", "checksum", "success"));
                }
                TestDb.CliResult r = db.cli("migrate", "--locations", "filesystem:" + dir);
                assertThat(r.exitCode()).isEqualTo(1);
                assertThat(r.err()).contains("does not match this build's migrations").containsIgnoringCase("checksum mismatch")
                        .contains("4.8.0");
                try (Connection c = db.connect()) {
                    assertThat(Fixture.rows(c, "flyway_schema_history", List.of("version", "checksum", "success")))
                            .as("the history is left as it was").isEqualTo(history);
                }
            } finally {
                TestDb.deleteTree(dir);
            }
        }
    }

    static TestDb baselineWithData(TestDb.Kind kind) throws Exception {
        TestDb db = TestDb.open(kind);
        try {
            db.migrate("--target", "4.8.0");
            try (Connection c = db.connect()) {
                FIXTURE.load(c);
            }
            return db;
        } catch (Exception | Error e) {
            db.close();
            throw e;
        }
    }

    /** The shipped migrations, with a failing statement after the first {@code done} statements of 4.9.0. */
    static Path injectedFailureAfter(int done) throws Exception {
        Path dir = TestDb.copyOfMigrations();
        List<String> statements = new ArrayList<>(TestDb.statements(TestDb.V490));
        statements.add(done, "INSERT INTO `AioInjectedFailure` (`id`) VALUES (1)");
        Files.writeString(dir.resolve(TestDb.V490), String.join(";\n\n", statements) + ";\n");
        return dir;
    }

    /** The end state of an uninterrupted upgrade of the same fixture, computed once per database kind. */
    static synchronized Map<String, List<String>> reference(TestDb.Kind kind) throws Exception {
        Map<String, List<String>> ref = REFERENCE.get(kind);
        if (ref == null) {
            try (TestDb db = baselineWithData(kind)) {
                db.migrate();
                ref = endState(db);
            }
            REFERENCE.put(kind, ref);
        }
        return ref;
    }

    /**
     * Schema (columns of every table) and data of every table; ResourceConfigVO without its generated uuid and
     * timestamps; the history without ranks, times and Flyway's H2 schema marker.
     */
    static Map<String, List<String>> endState(TestDb db) throws Exception {
        List<String> tables = UpgradeTest.concat(SchemaUpgrade.BASELINE_TABLES, UpgradeTest.PLUGIN_TABLES);
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (Connection c = db.connect()) {
            Map<String, List<String>> columns = Fixture.columns(c, tables);
            columns.forEach((t, cols) -> out.put("schema " + t, cols));
            Map<String, List<String>> data = new LinkedHashMap<>(columns);
            data.remove("ResourceConfigVO");
            out.putAll(Fixture.rows(c, data));
            out.put("ResourceConfigVO", Fixture.rows(c, "ResourceConfigVO",
                    List.of("resourceUuid", "resourceType", "category", "name", "value")));
            out.put("ResourceConfigVO distinct uuids", List.of(String.valueOf(
                    Fixture.count(c, "SELECT COUNT(DISTINCT `uuid`) FROM `ResourceConfigVO`"))));
            List<String> history = Fixture.rows(c, "flyway_schema_history",
                    List.of("version", "description", "type", "checksum", "success"));
            history.removeIf(h -> h.startsWith("null|"));
            out.put("flyway_schema_history", history);
        }
        return out;
    }
}
