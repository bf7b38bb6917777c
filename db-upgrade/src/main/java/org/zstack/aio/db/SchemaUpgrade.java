package org.zstack.aio.db;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.CoreErrorCode;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.api.configuration.FluentConfiguration;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.output.ValidateOutput;
import org.flywaydb.core.api.output.ValidateResult;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * How the plugin's schema is brought up to date, shared by {@code aio-db} and (through a
 * {@code FlywayMigrationStrategy}) the management server:
 * <ul>
 *   <li>strict validation: an edited migration (checksum) or a database newer than this build refuses;</li>
 *   <li>an existing 4.8.0 installation (the platform's tables, no Flyway history) is baselined at 4.8.0, so only
 *       the plugin's 4.9.0 runs against its data; an empty database runs every migration;</li>
 *   <li>a failed migration left by an interrupted upgrade (MariaDB DDL is not transactional) is removed from the
 *       history and re-run, which is safe because every statement of every migration is idempotent.</li>
 * </ul>
 */
public final class SchemaUpgrade {

    public static final String BASELINE_VERSION = "4.8.0";
    public static final String BASELINE_DESCRIPTION = "existing platform 4.8.0 installation";
    public static final String DEFAULT_LOCATION = "classpath:db/migration";
    /** The tables of the platform's 4.8.0 release that the plugin touches (V4.8.0__platform_baseline.sql). */
    public static final List<String> BASELINE_TABLES = List.of("AccountVO", "SessionVO", "GlobalConfigVO",
            "ResourceConfigVO", "HostVO", "PrimaryStorageVO", "VmInstanceVO", "VolumeVO");

    /** What the database holds before anything runs. */
    public enum State {
        /** no tables at all: every migration runs */
        EMPTY,
        /** the platform's tables without Flyway history: baseline at 4.8.0, then run 4.9.0 */
        PLATFORM_WITHOUT_HISTORY,
        /** Flyway history present: run what is pending */
        MANAGED
    }

    /** What {@link #migrate()} did. */
    public record Outcome(State state, boolean baselined, List<String> repairedVersions, String fromVersion,
                          String toVersion, int migrationsExecuted) {
    }

    private final Configuration base;

    /** @param base data source, locations and target; strictness, baseline and repair are decided here */
    public SchemaUpgrade(Configuration base) {
        this.base = base;
    }

    /** The configuration the CLI uses: the given database and locations, strict validation. */
    public static FluentConfiguration configure(DatabaseSettings db, List<String> locations, String target) {
        FluentConfiguration c = Flyway.configure(SchemaUpgrade.class.getClassLoader())
                .dataSource(db.url(), db.user(), db.password())
                .locations(locations.toArray(String[]::new))
                .failOnMissingLocations(true)
                .connectRetries(0);
        if (target != null && !target.isBlank()) {
            c.target(target);
        }
        return c;
    }

    /** The same strict rules the server must use: nothing ignored, validate on migrate, no clean. */
    private FluentConfiguration strict() {
        return Flyway.configure(SchemaUpgrade.class.getClassLoader())
                .configuration(base)
                .ignoreMigrationPatterns(new String[0])
                .validateOnMigrate(true)
                .cleanDisabled(true)
                .baselineOnMigrate(false);
    }

    public State state() {
        DataSource ds = base.getDataSource();
        if (ds == null) {
            throw new UpgradeRefusedException("No database configured.");
        }
        try (Connection c = ds.getConnection()) {
            Set<String> tables = tables(c);
            if (tables.contains(base.getTable().toLowerCase(Locale.ROOT))) {
                return State.MANAGED;
            }
            if (tables.isEmpty()) {
                return State.EMPTY;
            }
            List<String> present = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String t : BASELINE_TABLES) {
                (tables.contains(t.toLowerCase(Locale.ROOT)) ? present : missing).add(t);
            }
            if (missing.isEmpty()) {
                return State.PLATFORM_WITHOUT_HISTORY;
            }
            if (!present.isEmpty()) {
                throw new UpgradeRefusedException("The database has some of the platform's tables " + present
                        + " but not " + missing + ", and no schema history: it is not a platform " + BASELINE_VERSION
                        + " installation, so nothing was changed. Restore the missing tables or use an empty database.");
            }
            throw new UpgradeRefusedException("The database holds tables that are not the platform's (e.g. "
                    + tables.iterator().next() + ") and no schema history, so nothing was changed. "
                    + "Point the database settings at the platform's database or at an empty one.");
        } catch (SQLException e) {
            throw new UpgradeRefusedException("Cannot reach the database: " + e.getMessage(), e);
        }
    }

    private static Set<String> tables(Connection c) throws SQLException {
        Set<String> names = new TreeSet<>();
        DatabaseMetaData md = c.getMetaData();
        try (ResultSet rs = md.getTables(c.getCatalog(), c.getSchema(), "%", null)) {
            while (rs.next()) {
                String type = rs.getString("TABLE_TYPE");
                if (type != null && (type.equalsIgnoreCase("TABLE") || type.equalsIgnoreCase("BASE TABLE"))) {
                    names.add(rs.getString("TABLE_NAME").toLowerCase(Locale.ROOT));
                }
            }
        }
        return names;
    }

    /**
     * Brings the database to the target (default: latest). Throws {@link UpgradeRefusedException} with a clear
     * message when the database does not match this build; the database is then left as it was.
     */
    public Outcome migrate() {
        // the embedded H2 is never a Galera node; and an extra connection opened and closed on its in-process file
        // database before Flyway's own lost the rows of an existing installation (ServerBootUpgradeTest)
        if (base.getUrl() != null && base.getUrl().startsWith("jdbc:h2:")) {
            return migrateHere();
        }
        // on Galera, one management node at a time: the others wait and then find nothing pending
        try (ClusterMigrationLease lease = ClusterMigrationLease.acquireIfGalera(base.getDataSource(),
                Duration.ofMinutes(15), Duration.ofMinutes(5))) {
            return migrateHere();
        }
    }

    private Outcome migrateHere() {
        State state = state();
        FluentConfiguration c = strict();
        if (state == State.PLATFORM_WITHOUT_HISTORY) {
            c.baselineOnMigrate(true).baselineVersion(BASELINE_VERSION).baselineDescription(BASELINE_DESCRIPTION);
        }
        Flyway flyway = c.load();
        List<String> repaired = state == State.MANAGED ? repairFailed(flyway) : List.of();
        try {
            MigrateResult r = flyway.migrate();
            MigrationInfo current = flyway.info().current();
            return new Outcome(state, state == State.PLATFORM_WITHOUT_HISTORY, repaired, r.initialSchemaVersion,
                    current == null || current.getVersion() == null ? r.targetSchemaVersion : current.getVersion().getVersion(),
                    r.migrationsExecuted);
        } catch (FlywayValidateException e) {
            throw new UpgradeRefusedException(mismatchMessage(e.getMessage()), e);
        }
    }

    /**
     * An upgrade interrupted by an error leaves a failed entry in the history on MariaDB (its DDL commits at once),
     * and Flyway then refuses to migrate. Every migration here is idempotent, so the failed entry is removed and
     * the migration re-runs from its first statement. Only when nothing else is wrong: an edited migration or a
     * newer database still refuses, before anything is touched.
     */
    private List<String> repairFailed(Flyway flyway) {
        List<MigrationInfo> failed = Arrays.stream(flyway.info().all())
                .filter(i -> i.getState() == MigrationState.FAILED)
                .toList();
        if (failed.isEmpty()) {
            return List.of();
        }
        // Strict validation reports each invalid migration with its first problem; a failed one is reported as
        // failed. Anything else (an edited or unknown applied migration) refuses before the history is touched.
        ValidateResult v = validate();
        boolean onlyFailed = v.invalidMigrations != null && !v.invalidMigrations.isEmpty()
                && v.invalidMigrations.stream().allMatch(o -> o.errorDetails != null
                        && o.errorDetails.errorCode == CoreErrorCode.FAILED_VERSIONED_MIGRATION);
        if (!v.validationSuccessful && !onlyFailed) {
            throw new UpgradeRefusedException(mismatchMessage(describe(v)));
        }
        flyway.repair();
        return failed.stream().map(i -> i.getVersion().getVersion()).toList();
    }

    /**
     * Strict validation of the database against this build's migrations. Pending ones are fine (as in
     * validate-on-migrate); failed, edited, missing or future ones are not.
     */
    public ValidateResult validate() {
        return strict().ignoreMigrationPatterns("*:pending").load().validateWithResult();
    }

    /** Applied and pending migrations, for {@code aio-db info}. */
    public MigrationInfo[] info() {
        return strict().load().info().all();
    }

    /** Flyway's messages for each invalid migration, one per line, else its overall message. */
    public static String describe(ValidateResult r) {
        List<String> lines = new ArrayList<>();
        if (r.invalidMigrations != null) {
            for (ValidateOutput o : r.invalidMigrations) {
                if (o.errorDetails != null && o.errorDetails.errorMessage != null) {
                    lines.add(o.errorDetails.errorMessage.strip());
                }
            }
        }
        if (lines.isEmpty() && r.errorDetails != null && r.errorDetails.errorMessage != null) {
            lines.add(r.errorDetails.errorMessage.strip());
        }
        return String.join("\n", lines);
    }

    /** The sentence a person acts on, then Flyway's details. */
    public static String mismatchMessage(String flywayDetails) {
        return "The database does not match this build's migrations (a released migration was edited, or the "
                + "database was upgraded by a newer release); nothing was changed. Restore the released migration "
                + "files or run the release that upgraded the database.\n" + flywayDetails;
    }

    /** Wraps any Flyway error into one the caller can print. */
    public static UpgradeRefusedException refused(FlywayException e) {
        return new UpgradeRefusedException(e.getMessage(), e);
    }
}
