package org.zstack.aio.db;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** Fresh install, upgrade of a 4.8.0 installation holding data, and a second migrate that changes nothing. */
class UpgradeTest {

    static final List<String> PLUGIN_TABLES = List.of("HostIoCapabilitiesVO", "VolumeIoModeDecisionVO", "AioApiJobVO");

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void freshInstallRunsEveryMigrationToLatest(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            TestDb.CliResult r = db.migrate();
            assertThat(r.out()).contains("Empty database").contains("to version " + TestDb.LATEST + " " + TestDb.applied(TestDb.VERSIONS.size()));
            try (Connection c = db.connect()) {
                for (String t : concat(SchemaUpgrade.BASELINE_TABLES, PLUGIN_TABLES)) {
                    assertThat(Fixture.count(c, "SELECT COUNT(*) FROM `" + t + "`")).as(t).isZero();
                }
                assertThat(Fixture.columns(c, List.of("VolumeVO")).get("VolumeVO"))
                        .anySatisfy(col -> assertThat(col).startsWithIgnoringCase("preallocation "));
                assertThat(Fixture.history(c, "version", "success"))
                        .filteredOn(row -> !row.startsWith("null|")) // H2: Flyway's "<< Flyway Schema Creation >>" marker
                        .containsExactlyElementsOf(TestDb.VERSIONS.stream().map(v -> v + "|" + success(kind)).toList());
            }
            TestDb.CliResult info = db.cli("info");
            assertThat(info.exitCode()).isZero();
            assertThat(info.out()).contains("Version", "Description", "Type", "Installed On", "State")
                    .containsPattern("4\\.8\\.0 +\\| platform baseline +\\| SQL +\\| \\d{4}-\\d\\d-\\d\\d [\\d:]+ +\\| Success")
                    .containsPattern("4\\.9\\.0 +\\| aio io mode +\\| SQL +\\| \\d{4}-\\d\\d-\\d\\d [\\d:]+ +\\| Success");
            assertThat(db.cli("validate").exitCode()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void upgradeFromBaselineAddsOnlyTheSharedBlockPinsAndKeepsEveryRow(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            db.migrate("--target", "4.8.0");
            TestDb.CliResult pending = db.cli("info");
            assertThat(pending.out()).containsPattern("4\\.8\\.0 .*\\| Success").containsPattern("4\\.9\\.0 .*\\| Pending");
            Fixture f = new Fixture(3000, 4);
            Map<String, List<String>> before;
            Map<String, List<String>> columns;
            try (Connection c = db.connect()) {
                f.load(c);
                columns = Fixture.columns(c, SchemaUpgrade.BASELINE_TABLES);
                before = Fixture.rows(c, columns);
            }
            assertThat(before.get("VolumeVO")).hasSize(3000);

            TestDb.CliResult r = db.migrate();
            assertThat(r.out()).contains("Migrated from version 4.8.0 to version " + TestDb.LATEST + " " + TestDb.applied(TestDb.VERSIONS.size() - 1));

            assertUpgradedExactly(db, f, columns, before);
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void existingInstallationWithoutHistoryIsBaselinedAt480ThenUpgraded(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            // the platform's tables as a 4.8.0 release left them, without any Flyway history
            for (String sql : TestDb.statements(TestDb.V480)) {
                db.execute(sql);
            }
            Fixture f = new Fixture(2000, 3);
            Map<String, List<String>> before;
            Map<String, List<String>> columns;
            try (Connection c = db.connect()) {
                f.load(c);
                columns = Fixture.columns(c, SchemaUpgrade.BASELINE_TABLES);
                before = Fixture.rows(c, columns);
            }
            assertThat(db.cli("info").out()).contains("No schema history: an existing platform installation");
            assertThat(db.cli("validate").exitCode()).isZero();

            TestDb.CliResult r = db.migrate();
            assertThat(r.out()).contains("baselined at 4.8.0")
                    .contains("Migrated from version 4.8.0 to version " + TestDb.LATEST + " " + TestDb.applied(TestDb.VERSIONS.size() - 1));

            assertUpgradedExactly(db, f, columns, before);
            try (Connection c = db.connect()) {
                assertThat(Fixture.history(c, "version", "type", "success"))
                        .filteredOn(row -> !row.startsWith("null|"))
                        .containsExactlyElementsOf(TestDb.VERSIONS.stream()
                                .map(v -> v + (v.equals("4.8.0") ? "|BASELINE|" : "|SQL|") + success(kind)).toList());
            }
            assertThat(db.cli("info").out()).containsPattern("4\\.8\\.0 .*\\| BASELINE .*\\| Baseline");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void migrateTwiceIsANoOp(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            db.migrate("--target", "4.8.0");
            try (Connection c = db.connect()) {
                new Fixture(1000, 2).load(c);
            }
            db.migrate();
            Map<String, List<String>> first;
            List<String> all = concat(concat(SchemaUpgrade.BASELINE_TABLES, PLUGIN_TABLES), List.of("flyway_schema_history"));
            try (Connection c = db.connect()) {
                first = Fixture.rows(c, Fixture.columns(c, all));
            }
            TestDb.CliResult again = db.migrate();
            assertThat(again.out()).contains("Schema is up to date at version " + TestDb.LATEST + ": nothing to do.");
            try (Connection c = db.connect()) {
                assertThat(Fixture.rows(c, Fixture.columns(c, all))).isEqualTo(first);
            }
        }
    }

    /**
     * After the upgrade: the baseline columns of every pre-existing table hold exactly the rows they held before,
     * except ResourceConfigVO, which gained exactly one kvm/vm.ioMode=native row per SharedBlock storage without
     * one; VolumeVO gained an all-NULL preallocation column; the plugin's tables exist and are empty.
     */
    static void assertUpgradedExactly(TestDb db, Fixture f, Map<String, List<String>> columns,
                                      Map<String, List<String>> before) throws Exception {
        try (Connection c = db.connect()) {
            Map<String, List<String>> after = Fixture.rows(c, columns);
            Map<String, List<String>> unchangedBefore = new TreeMap<>(before);
            Map<String, List<String>> unchangedAfter = new TreeMap<>(after);
            unchangedBefore.remove("ResourceConfigVO");
            unchangedAfter.remove("ResourceConfigVO");
            assertThat(unchangedAfter).isEqualTo(unchangedBefore);

            List<String> added = new ArrayList<>(after.get("ResourceConfigVO"));
            assertThat(added).containsAll(before.get("ResourceConfigVO"));
            added.removeAll(before.get("ResourceConfigVO"));
            assertThat(added).hasSize(f.pinnedStorages.size());

            List<String> pins = Fixture.rows(c, "ResourceConfigVO", List.of("resourceUuid", "resourceType", "category", "name", "value"));
            pins.removeIf(p -> !p.endsWith("|kvm|vm.ioMode|native") || !p.contains("|PrimaryStorageVO|"));
            List<String> expected = new ArrayList<>();
            for (String ps : f.pinnedStorages) {
                expected.add(ps + "|PrimaryStorageVO|kvm|vm.ioMode|native");
            }
            expected.add(Fixture.ps("NFS", 0) + "|PrimaryStorageVO|kvm|vm.ioMode|native"); // pre-existing, kept
            assertThat(pins).containsExactlyInAnyOrderElementsOf(expected);
            assertThat(Fixture.rows(c, "ResourceConfigVO", List.of("value")).size()).isEqualTo(before.get("ResourceConfigVO").size() + f.pinnedStorages.size());
            assertThat(Fixture.count(c, "SELECT COUNT(*) FROM `ResourceConfigVO` WHERE `resourceUuid` = '"
                    + f.sharedBlockWithOwnRow + "' AND `category` = 'kvm' AND `name` = 'vm.ioMode' AND `value` = 'threads'")).isOne();
            assertThat(Fixture.count(c, "SELECT COUNT(DISTINCT `uuid`) FROM `ResourceConfigVO`"))
                    .isEqualTo(before.get("ResourceConfigVO").size() + f.pinnedStorages.size());
            assertThat(Fixture.count(c, "SELECT COUNT(*) FROM `ResourceConfigVO` WHERE LENGTH(`uuid`) <> 32")).isZero();

            assertThat(Fixture.count(c, "SELECT COUNT(*) FROM `VolumeVO` WHERE `preallocation` IS NOT NULL")).isZero();
            for (String t : PLUGIN_TABLES) {
                assertThat(Fixture.count(c, "SELECT COUNT(*) FROM `" + t + "`")).as(t).isZero();
            }
            assertThat(Fixture.count(c, "SELECT COUNT(*) FROM `flyway_schema_history` WHERE `success` = 0")).isZero();
        }
    }

    static String success(TestDb.Kind kind) {
        return kind == TestDb.Kind.H2 ? "TRUE" : "1";
    }

    static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
