package org.zstack.aio.db;

import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.ValidateResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.logging.ConsoleHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * {@code aio-db migrate | info | validate [--target VERSION]}: the plugin's schema upgrade, with the server's
 * database settings (AIO_DB_URL / AIO_DB_USER / AIO_DB_PASSWORD, else the embedded H2 under AIO_DATA_DIR).
 * Exit codes: 0 done / valid, 1 refused / invalid / database unreachable, 2 bad usage.
 */
@Command(name = "aio-db", mixinStandardHelpOptions = true, version = "aio-db 1.0.0",
        description = "Upgrades, inspects and validates the plugin's database schema (Flyway).",
        subcommands = {AioDb.Migrate.class, AioDb.Info.class, AioDb.Validate.class})
public class AioDb implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--db-url", scope = CommandLine.ScopeType.INHERIT, description = "JDBC URL, e.g. jdbc:mariadb://127.0.0.1:3306/zstack (default: $AIO_DB_URL, else the embedded H2)")
    String dbUrl;

    @Option(names = "--db-user", scope = CommandLine.ScopeType.INHERIT, description = "default: $AIO_DB_USER, else root")
    String dbUser;

    @Option(names = "--db-password", scope = CommandLine.ScopeType.INHERIT, description = "default: $AIO_DB_PASSWORD")
    String dbPassword;

    @Option(names = "--data-dir", scope = CommandLine.ScopeType.INHERIT, description = "embedded H2 directory when no database URL is set (default: $AIO_DATA_DIR, else ./data)")
    String dataDir;

    @Option(names = "--target", scope = CommandLine.ScopeType.INHERIT, description = "stop at this version (default: latest)")
    String target;

    @Option(names = "--locations", scope = CommandLine.ScopeType.INHERIT, split = ",",
            description = "Flyway locations (default: " + SchemaUpgrade.DEFAULT_LOCATION + "); e.g. filesystem:/path")
    List<String> locations;

    private final Map<String, String> env;

    public AioDb() {
        this(System.getenv());
    }

    public AioDb(Map<String, String> env) {
        this.env = env;
    }

    public static void main(String[] args) {
        quietFlywayLogging();
        System.exit(commandLine(new AioDb()).execute(args));
    }

    public static CommandLine commandLine(AioDb aioDb) {
        CommandLine cl = new CommandLine(aioDb);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            if (ex instanceof UpgradeRefusedException) {
                err.println("aio-db: " + ex.getMessage());
            } else if (ex instanceof FlywayException) {
                err.println("aio-db: " + ex.getMessage().strip());
                if ("migrate".equals(cmd.getCommandName())) {
                    err.println("aio-db: the upgrade stopped part way. Fix the cause above and run `aio-db migrate` again:"
                            + " the failed migration is removed from the history and re-run from its first statement"
                            + " (every statement is idempotent), reaching the same end state.");
                }
            } else {
                err.println("aio-db: " + ex);
            }
            err.flush();
            return 1;
        });
        return cl;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: migrate, info or validate");
    }

    DatabaseSettings settings() {
        Map<String, String> m = new HashMap<>(env);
        if (dbUrl != null) m.put("AIO_DB_URL", dbUrl);
        if (dbUser != null) m.put("AIO_DB_USER", dbUser);
        if (dbPassword != null) m.put("AIO_DB_PASSWORD", dbPassword);
        if (dataDir != null) m.put("AIO_DATA_DIR", dataDir);
        return DatabaseSettings.from(m);
    }

    SchemaUpgrade upgrade() {
        List<String> locs = locations == null || locations.isEmpty() ? List.of(SchemaUpgrade.DEFAULT_LOCATION) : locations;
        DatabaseSettings s = settings();
        s.prepareEmbeddedDirectory();
        return new SchemaUpgrade(SchemaUpgrade.configure(s, locs, target));
    }

    String where() {
        DatabaseSettings s = settings();
        String url = s.url();
        int semi = url.indexOf(';');
        return s.embedded() && semi > 0 ? url.substring(0, semi) + " (embedded H2)" : url;
    }

    /** Flyway logs through java.util.logging here: one plain line per message on stderr, warnings and up. */
    private static final Logger FLYWAY_LOG = Logger.getLogger("org.flywaydb"); // held: JUL keeps loggers weakly

    static void quietFlywayLogging() {
        Logger flyway = FLYWAY_LOG;
        flyway.setUseParentHandlers(false);
        flyway.setLevel(Level.WARNING);
        Handler h = new ConsoleHandler();
        h.setFormatter(new SimpleFormatter() {
            @Override
            public synchronized String format(LogRecord r) {
                return "flyway: " + r.getLevel() + ": " + formatMessage(r) + System.lineSeparator();
            }
        });
        flyway.addHandler(h);
    }

    @Command(name = "migrate", description = {
            "Applies pending migrations up to --target (default: latest).",
            "A database holding the platform's 4.8.0 tables but no schema history is baselined at 4.8.0 first;",
            "a failed migration left by an interrupted upgrade is removed from the history and re-run."})
    static class Migrate implements Callable<Integer> {
        @ParentCommand
        AioDb top;
        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            SchemaUpgrade.Outcome o = top.upgrade().migrate();
            out.println("Database: " + top.where());
            switch (o.state()) {
                case EMPTY -> out.println("Empty database: installing every migration.");
                case PLATFORM_WITHOUT_HISTORY -> out.println("Existing platform installation without schema history: baselined at "
                        + SchemaUpgrade.BASELINE_VERSION + " (its tables and data kept as they are).");
                case MANAGED -> { }
            }
            for (String v : o.repairedVersions()) {
                out.println("Migration " + v + " had failed (interrupted upgrade): removed from the history, re-running it.");
            }
            if (o.migrationsExecuted() == 0) {
                out.println("Schema is up to date at version " + o.toVersion() + ": nothing to do.");
            } else {
                out.println("Migrated from " + (o.fromVersion() == null ? "an empty schema" : "version " + o.fromVersion())
                        + " to version " + o.toVersion() + " (" + o.migrationsExecuted() + " migration"
                        + (o.migrationsExecuted() == 1 ? "" : "s") + " applied).");
            }
            out.flush();
            return 0;
        }
    }

    @Command(name = "info", description = "Prints every migration with its state (applied, pending, failed, ...).")
    static class Info implements Callable<Integer> {
        @ParentCommand
        AioDb top;
        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            SchemaUpgrade up = top.upgrade();
            out.println("Database: " + top.where());
            String note = null;
            try {
                if (up.state() == SchemaUpgrade.State.PLATFORM_WITHOUT_HISTORY) {
                    note = "No schema history: an existing platform installation; migrate will baseline it at "
                            + SchemaUpgrade.BASELINE_VERSION + " and apply the rest.";
                }
            } catch (UpgradeRefusedException e) {
                note = e.getMessage();
            }
            out.print(table(up.info()));
            if (note != null) {
                out.println(note);
            }
            out.flush();
            return 0;
        }
    }

    @Command(name = "validate", description = {
            "Checks the database against this build's migrations: exits 1 with Flyway's message when an applied",
            "migration was edited (checksum), failed, or the database is newer than this build. Pending ones are fine."})
    static class Validate implements Callable<Integer> {
        @ParentCommand
        AioDb top;
        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            SchemaUpgrade up = top.upgrade();
            out.println("Database: " + top.where());
            if (up.state() == SchemaUpgrade.State.PLATFORM_WITHOUT_HISTORY) {
                out.println("Valid: an existing platform installation without schema history; migrate will baseline it at "
                        + SchemaUpgrade.BASELINE_VERSION + " and apply the rest.");
                out.flush();
                return 0;
            }
            ValidateResult r = up.validate();
            if (r.validationSuccessful) {
                out.println("Valid: " + r.validateCount + " migration" + (r.validateCount == 1 ? "" : "s")
                        + " checked, the database matches this build.");
                out.flush();
                return 0;
            }
            out.flush();
            err.println("aio-db validate: INVALID. " + SchemaUpgrade.mismatchMessage(SchemaUpgrade.describe(r)));
            err.flush();
            return 1;
        }
    }

    static String table(MigrationInfo[] all) {
        SimpleDateFormat fmt = new SimpleDateFormat("yyyy-MM-dd HH:mm:ss");
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[]{"Version", "Description", "Type", "Installed On", "State"});
        for (MigrationInfo i : all) {
            rows.add(new String[]{
                    i.getVersion() == null ? "" : i.getVersion().getVersion(),
                    i.getDescription() == null ? "" : i.getDescription(),
                    i.getType() == null ? "" : i.getType().name(),
                    i.getInstalledOn() == null ? "" : fmt.format(i.getInstalledOn()),
                    i.getState().getDisplayName()});
        }
        int[] w = new int[5];
        for (String[] r : rows) {
            for (int c = 0; c < 5; c++) {
                w[c] = Math.max(w[c], r[c].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        StringBuilder line = new StringBuilder("+");
        for (int c = 0; c < 5; c++) {
            line.append("-".repeat(w[c] + 2)).append('+');
        }
        sb.append(line).append('\n');
        for (int n = 0; n < rows.size(); n++) {
            sb.append('|');
            for (int c = 0; c < 5; c++) {
                sb.append(' ').append(rows.get(n)[c]).append(" ".repeat(w[c] - rows.get(n)[c].length())).append(" |");
            }
            sb.append('\n');
            if (n == 0) {
                sb.append(line).append('\n');
            }
        }
        if (rows.size() == 1) {
            sb.append("| (no migrations found)").append('\n');
        }
        sb.append(line).append('\n');
        return sb.toString();
    }
}
