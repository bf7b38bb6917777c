package org.zstack.aio.db;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Serializes schema migrations of management nodes that reach a Galera cluster through different nodes.
 * Flyway locks its history table with {@code SELECT … FOR UPDATE}, and on Galera a row lock holds on one node only
 * (GET_LOCK is not replicated either), so two first boots on two nodes would both migrate. What Galera does make
 * cluster-wide is a commit: two transactions changing the same row on two nodes cannot both commit (the second fails
 * certification with a deadlock error). So the lease is one row per database in {@value #LEASE_DB}.{@value #LEASE_TABLE},
 * taken by a conditional UPDATE that only succeeds while the row is free or expired, read with
 * {@code wsrep_sync_wait} so a node sees every commit made elsewhere before deciding. The lease lives outside the
 * plugin's database so Flyway still sees an empty schema as empty. Only on a Galera node: a single MariaDB, H2 and
 * MySQL keep Flyway's own lock and need no extra privilege.
 */
final class ClusterMigrationLease implements AutoCloseable {

    static final String LEASE_DB = "aio_cluster";
    static final String LEASE_TABLE = "schema_migration_lease";
    private static final int ER_LOCK_DEADLOCK = 1213;

    private final DataSource ds;
    private final String schema;
    private final String owner;

    private ClusterMigrationLease(DataSource ds, String schema, String owner) {
        this.ds = ds;
        this.schema = schema;
        this.owner = owner;
    }

    /** Null when the database is not a Galera node (nothing to serialize beyond Flyway's lock). */
    static ClusterMigrationLease acquireIfGalera(DataSource ds, Duration lease, Duration wait) {
        if (ds == null) return null;   // state() says what is missing
        Connection opened;
        try {
            opened = ds.getConnection();
        } catch (SQLException e) {
            throw new UpgradeRefusedException("Cannot reach the database: " + e.getMessage(), e);
        }
        try (Connection c = opened) {
            if (!isGaleraNode(c)) return null;
            String schema = c.getCatalog();
            String owner = hostName() + "/" + UUID.randomUUID();
            syncReads(c);
            try (Statement s = c.createStatement()) {
                // DDL runs in total order on every node, so concurrent IF NOT EXISTS from two nodes is harmless
                s.execute("CREATE DATABASE IF NOT EXISTS " + LEASE_DB);
                s.execute("CREATE TABLE IF NOT EXISTS " + LEASE_DB + "." + LEASE_TABLE + " (schema_name VARCHAR(64) "
                        + "PRIMARY KEY, owner VARCHAR(255), expires_at DATETIME(3)) ENGINE=InnoDB");
            }
            retryingConflicts(() -> update(c, "INSERT IGNORE INTO " + LEASE_DB + "." + LEASE_TABLE
                    + " (schema_name) VALUES (?)", schema));
            long deadline = System.nanoTime() + wait.toNanos();
            while (true) {
                int taken = retryingConflicts(() -> update(c, "UPDATE " + LEASE_DB + "." + LEASE_TABLE
                        + " SET owner = ?, expires_at = NOW(3) + INTERVAL " + lease.toSeconds() + " SECOND"
                        + " WHERE schema_name = ? AND (owner IS NULL OR expires_at < NOW(3))", owner, schema));
                if (taken == 1) {
                    unsyncReads(c);
                    return new ClusterMigrationLease(ds, schema, owner);
                }
                if (System.nanoTime() > deadline) {
                    unsyncReads(c);
                    throw new UpgradeRefusedException("Another management node (" + holder(c, schema) + ") has been "
                            + "migrating database " + schema + " for more than " + wait.toSeconds() + " s, so this "
                            + "one did not start. Start it again when that node is up, or, if that node died, when "
                            + "its lease expires (" + lease.toMinutes() + " min) or after clearing the row in "
                            + LEASE_DB + "." + LEASE_TABLE + ".");
                }
                Thread.sleep(100 + ThreadLocalRandom.current().nextInt(150));
            }
        } catch (SQLException e) {
            throw new UpgradeRefusedException("Cannot take the cluster migration lease: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpgradeRefusedException("Interrupted while waiting for another node's schema migration.", e);
        }
    }

    static boolean isGaleraNode(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'wsrep_cluster_size'")) {
            return rs.next() && rs.getString(2) != null && !rs.getString(2).isBlank() && Integer.parseInt(rs.getString(2)) > 0;
        } catch (SQLException e) {
            return false;   // H2, MySQL without wsrep: not a Galera node
        }
    }

    /** Reads and updates on this session wait until the node applied everything committed cluster-wide. */
    private static void syncReads(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION wsrep_sync_wait = 15");
        }
    }

    /** The connection may go back to a pool: leave the session as it was. */
    private static void unsyncReads(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("SET SESSION wsrep_sync_wait = DEFAULT");
        } catch (SQLException ignored) {
            // a broken connection is discarded by the pool anyway
        }
    }

    @Override
    public void close() {
        try (Connection c = ds.getConnection()) {
            syncReads(c);
            retryingConflicts(() -> update(c, "UPDATE " + LEASE_DB + "." + LEASE_TABLE
                    + " SET owner = NULL, expires_at = NULL WHERE schema_name = ? AND owner = ?", schema, owner));
            unsyncReads(c);
        } catch (SQLException | InterruptedException e) {
            // the lease then expires by itself; the schema is migrated either way
            System.err.println("aio: could not release the migration lease (it expires by itself): " + e.getMessage());
        }
    }

    private static String holder(Connection c, String schema) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT owner FROM " + LEASE_DB + "." + LEASE_TABLE
                + " WHERE schema_name = ?")) {
            p.setString(1, schema);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getString(1) : "unknown";
            }
        }
    }

    private static int update(Connection c, String sql, String... args) throws SQLException {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) p.setString(i + 1, args[i]);
            return p.executeUpdate();
        }
    }

    private interface Update {
        int run() throws SQLException;
    }

    /** A lost certification (two nodes writing the lease row at once) rolled back: run the statement again. */
    private static int retryingConflicts(Update u) throws SQLException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return u.run();
            } catch (SQLException e) {
                if (e.getErrorCode() != ER_LOCK_DEADLOCK && !"40001".equals(e.getSQLState()) || attempt >= 20) throw e;
                Thread.sleep(ThreadLocalRandom.current().nextInt(10, 50 * Math.min(attempt, 6)));
            }
        }
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown-host";
        }
    }
}
