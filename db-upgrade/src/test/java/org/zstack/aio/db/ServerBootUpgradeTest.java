package org.zstack.aio.db;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the management server gets at boot with Spring Boot's Flyway settings (locations classpath:db/migration,
 * ignore-migration-patterns "", validate-on-migrate): plain {@code flyway.migrate()} refuses an existing 4.8.0
 * installation without history, while {@code new SchemaUpgrade(flyway.getConfiguration()).migrate()} (the
 * recommended FlywayMigrationStrategy) baselines and upgrades it, and refuses an edited migration with the
 * same message as {@code aio-db}.
 */
class ServerBootUpgradeTest {

    static FluentConfiguration serverConfiguration(TestDb db) {
        return Flyway.configure()
                .dataSource(db.url, db.user, db.password)
                .locations("classpath:db/migration")
                .ignoreMigrationPatterns(new String[0])
                .validateOnMigrate(true);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void anExistingInstallationWithoutHistoryNeedsTheStrategy(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            for (String sql : TestDb.statements(TestDb.V480)) {
                db.execute(sql);
            }
            Fixture f = new Fixture(500, 2);
            try (Connection c = db.connect()) {
                f.load(c);
            }
            Flyway plain = serverConfiguration(db).load();
            assertThatThrownBy(plain::migrate).isInstanceOf(FlywayException.class)
                    .hasMessageContaining("but no schema history table");

            SchemaUpgrade.Outcome o = new SchemaUpgrade(plain.getConfiguration()).migrate();
            assertThat(o.baselined()).isTrue();
            assertThat(o.toVersion()).isEqualTo(TestDb.LATEST);
            try (Connection c = db.connect()) {
                assertThat(Fixture.count(c, "SELECT COUNT(*) FROM `ResourceConfigVO` WHERE `category` = 'kvm' AND `name` = 'vm.ioMode'"
                        + " AND `value` = 'native' AND `resourceType` = 'PrimaryStorageVO'"))
                        .isEqualTo(f.pinnedStorages.size() + 1L);
            }
            assertThat(new SchemaUpgrade(plain.getConfiguration()).migrate().migrationsExecuted()).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestDb.Kind.class)
    void anEditedMigrationRefusesTheBootWithAClearMessage(TestDb.Kind kind) throws Exception {
        try (TestDb db = TestDb.open(kind)) {
            new SchemaUpgrade(serverConfiguration(db).load().getConfiguration()).migrate();
            Path dir = TestDb.copyOfMigrations();
            try {
                Files.writeString(dir.resolve(TestDb.V480), TestDb.migrationText(TestDb.V480).replace("DEFAULT 7070", "DEFAULT 7071"));
                Flyway edited = serverConfiguration(db).locations("filesystem:" + dir).load();
                assertThatThrownBy(() -> new SchemaUpgrade(edited.getConfiguration()).migrate())
                        .isInstanceOf(UpgradeRefusedException.class)
                        .hasMessageStartingWith("The database does not match this build's migrations")
                        .hasMessageContaining("Migration checksum mismatch for migration version 4.8.0");
            } finally {
                TestDb.deleteTree(dir);
            }
        }
    }
}
