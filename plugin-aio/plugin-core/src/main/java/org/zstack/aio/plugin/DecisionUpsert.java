package org.zstack.aio.plugin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The records of one operation stored in one MariaDB statement, one row per volume, with the columns
 * {@link DecisionRecord#STORED_COLUMNS} names: an INSERT of every row that updates a volume's existing row in place.
 * A row whose content is unchanged keeps its createDate ("decided so since"), as on the standalone server; lastOpDate
 * is the table's own bookkeeping. Used by the ZStack module, whose store writes plain SQL on ZStack's data source (an
 * upsert JPA has no word for).
 */
public final class DecisionUpsert {

    /** Writes a nested record (checks, attempts, optimizedFor) as the platform stores JSON text. */
    public interface Json {
        String write(Object value);
    }

    /** The columns that hold a nested record as JSON text: a query may match them as text, never select them. */
    public static final List<String> JSON_COLUMNS = Collections.unmodifiableList(Arrays.asList("checks", "attempts", "optimizedFor"));

    /**
     * The last read-back of the disk: written with the decision (an operation's records have none yet, so a start
     * clears what the previous run's read-back said), but not content: the decision is the same whatever was read.
     */
    public static final List<String> READ_BACK_COLUMNS = Collections.unmodifiableList(Arrays.asList("runningIo", "readBackAt",
            "disagreement"));

    /**
     * What the host reports the disk got ({@code appliedIo}, {@code appliedCache}: on ZStack, the live domain's driver
     * as a read-back finds it): written with the decision, but not content either, so a read-back followed by a start
     * of the same decision keeps its date.
     */
    public static final List<String> APPLIED_COLUMNS = Collections.unmodifiableList(Arrays.asList("appliedIo", "appliedCache"));

    /**
     * What a read-back writes on a stored row ({@link #readBack}): the live driver and the read-back, nothing of the
     * decision.
     */
    static final List<String> READ_BACK_WRITTEN;

    /**
     * The stored decision a read-back was compared with is still the row's when these are unchanged (the VM, its host,
     * the operation and the mode): a read-back that finishes after a later operation stored another decision leaves
     * that row alone.
     */
    static final List<String> READ_BACK_GUARD = Collections.unmodifiableList(Arrays.asList("vmInstanceUuid", "hostUuid",
            "operation", "effective"));

    private static final String CREATE_DATE = "createDate";
    private static final String KEY = "volumeUuid";
    /** Every stored column but the key and the date: what a row writes. */
    static final List<String> WRITTEN;
    /** What "unchanged" compares: the written columns but the read-back. */
    static final List<String> CONTENT;

    static {
        List<String> c = new ArrayList<String>(DecisionRecord.STORED_COLUMNS);
        c.remove(KEY);
        c.remove(CREATE_DATE);
        WRITTEN = Collections.unmodifiableList(new ArrayList<String>(c));
        c.removeAll(READ_BACK_COLUMNS);
        c.removeAll(APPLIED_COLUMNS);
        CONTENT = Collections.unmodifiableList(c);
        List<String> r = new ArrayList<String>(APPLIED_COLUMNS);
        r.addAll(READ_BACK_COLUMNS);
        READ_BACK_WRITTEN = Collections.unmodifiableList(r);
    }

    private final String sql;
    private final List<Object> args;

    private DecisionUpsert(String sql, List<Object> args) {
        this.sql = sql;
        this.args = args;
    }

    /** @param records at least one */
    public static DecisionUpsert of(String table, List<DecisionRecord> records, Json json) {
        if (records.isEmpty()) throw new IllegalArgumentException("nothing to store");
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (").append(KEY);
        for (String c : WRITTEN) sql.append(", ").append(c);
        sql.append(", createDate, lastOpDate) VALUES ");
        StringBuilder row = new StringBuilder("(?");
        for (int i = 0; i < WRITTEN.size(); i++) row.append(", ?");
        row.append(", NOW(), NOW())");
        List<Object> args = new ArrayList<Object>(records.size() * (WRITTEN.size() + 1));
        for (int i = 0; i < records.size(); i++) {
            DecisionRecord d = records.get(i);
            sql.append(i == 0 ? "" : ", ").append(row);
            args.add(d.getVolumeUuid());
            for (String c : WRITTEN) args.add(value(d, c, json));
        }
        // MariaDB assigns left to right: createDate is compared against the old values before they are replaced
        sql.append(" ON DUPLICATE KEY UPDATE createDate = IF(");
        for (int i = 0; i < CONTENT.size(); i++) {
            sql.append(i == 0 ? "" : " AND ").append(CONTENT.get(i)).append(" <=> VALUES(").append(CONTENT.get(i)).append(')');
        }
        sql.append(", createDate, NOW())");
        for (String c : WRITTEN) sql.append(", ").append(c).append(" = VALUES(").append(c).append(')');
        sql.append(", lastOpDate = NOW()");
        return new DecisionUpsert(sql.toString(), Collections.unmodifiableList(args));
    }

    /**
     * What a read-back found ({@link DiskIoModes#readBack}) written on the stored rows it read, in one statement: only
     * the live driver and the read-back columns ({@link #READ_BACK_WRITTEN}), and only on a row whose decision is still
     * the one compared ({@link #READ_BACK_GUARD}); a row deleted or decided anew meanwhile is left as it is, and no row
     * is created (a record that was never stored goes through {@link #of}). The decision's date stays.
     *
     * @param records at least one
     */
    public static DecisionUpsert readBack(String table, List<DecisionRecord> records) {
        if (records.isEmpty()) throw new IllegalArgumentException("nothing to store");
        StringBuilder sql = new StringBuilder("UPDATE ").append(table).append(" SET ");
        List<Object> args = new ArrayList<Object>();
        for (String c : READ_BACK_WRITTEN) {
            sql.append(c).append(" = CASE ").append(KEY);
            for (DecisionRecord d : records) {
                sql.append(" WHEN ? THEN ?");
                args.add(d.getVolumeUuid());
                args.add(raw(d, c));
            }
            sql.append(" END, ");
        }
        sql.append("lastOpDate = NOW() WHERE ");
        for (int i = 0; i < records.size(); i++) {
            DecisionRecord d = records.get(i);
            sql.append(i == 0 ? "(" : " OR (").append(KEY).append(" = ?");
            args.add(d.getVolumeUuid());
            for (String c : READ_BACK_GUARD) {
                sql.append(" AND ").append(c).append(" <=> ?");
                args.add(raw(d, c));
            }
            sql.append(')');
        }
        return new DecisionUpsert(sql.toString(), Collections.unmodifiableList(args));
    }

    public String sql() { return sql; }

    /** The statement's parameters, row by row in the order of its columns. */
    public List<Object> args() { return args; }

    /** One stored column of a record; the nested records ({@link #JSON_COLUMNS}) as JSON text, null staying null. */
    static Object value(DecisionRecord d, String column, Json json) {
        Object raw = raw(d, column);
        return raw != null && JSON_COLUMNS.contains(column) ? json.write(raw) : raw;
    }

    private static Object raw(DecisionRecord d, String column) {
        switch (column) {
            case "volumeUuid": return d.getVolumeUuid();
            case "vmInstanceUuid": return d.getVmInstanceUuid();
            case "hostUuid": return d.getHostUuid();
            case "operation": return d.getOperation();
            case "requested": return d.getRequested();
            case "source": return d.getSource();
            case "effective": return d.getEffective();
            case "refused": return d.isRefused();
            case "checks": return d.getChecks();
            case "reason": return d.getReason();
            case "appliedIo": return d.getAppliedIo();
            case "appliedCache": return d.getAppliedCache();
            case "attempts": return d.getAttempts();
            case "optimizedFor": return d.getOptimizedFor();
            case "runningIo": return d.getRunningIo();
            case "readBackAt": return d.getReadBackAt() == null ? null : new java.sql.Timestamp(java.time.Instant.parse(d.getReadBackAt()).toEpochMilli());
            case "disagreement": return d.getDisagreement();
            default: throw new IllegalArgumentException("DecisionUpsert has no value for the stored column " + column);
        }
    }
}
