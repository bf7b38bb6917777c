package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.utils.gson.JSONObjectUtil;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The applied decisions, one row per volume in AioVolumeIoModeDecisionVO (the module's Flyway scripts), with the
 * columns the core names ({@link DecisionRecord#STORED_COLUMNS}). Plain SQL on ZStack's data source: the table is the
 * module's own, and a JPA entity would have to be added to ZStack's persistence.xml. A VM start stores all its disks in
 * one statement; a row whose content is unchanged keeps its createDate ("decided so since"), as on the standalone
 * server.
 */
final class IoModeDecisionStore {

    static final String TABLE = "AioVolumeIoModeDecisionVO";

    /** Every stored column but the date, in the order of the INSERT. */
    private static final List<String> CONTENT = Arrays.asList("vmInstanceUuid", "hostUuid", "operation", "requested",
            "source", "effective", "refused", "checks", "reason", "appliedIo", "appliedCache", "attempts", "optimizedFor");

    private final JdbcTemplate jdbc;

    IoModeDecisionStore(DatabaseFacade dbf) {
        this.jdbc = new JdbcTemplate(dbf.getDataSource());
    }

    void save(List<DecisionRecord> decisions) {
        if (decisions.isEmpty()) return;
        StringBuilder sql = new StringBuilder("INSERT INTO " + TABLE + " (volumeUuid");
        for (String c : CONTENT) sql.append(", ").append(c);
        sql.append(", createDate, lastOpDate) VALUES ");
        List<Object> args = new ArrayList<>();
        for (int i = 0; i < decisions.size(); i++) {
            DecisionRecord d = decisions.get(i);
            sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NOW(), NOW())");
            args.addAll(Arrays.asList(d.getVolumeUuid(), d.getVmInstanceUuid(), d.getHostUuid(), d.getOperation(),
                    d.getRequested(), d.getSource(), d.getEffective(), d.isRefused(), JSONObjectUtil.toJsonString(d.getChecks()),
                    d.getReason(), d.getAppliedIo(), d.getAppliedCache(), json(d.getAttempts()), json(d.getOptimizedFor())));
        }
        // MariaDB assigns left to right: createDate is compared against the old values before they are replaced
        sql.append(" ON DUPLICATE KEY UPDATE createDate = IF(");
        for (int i = 0; i < CONTENT.size(); i++) {
            sql.append(i == 0 ? "" : " AND ").append(CONTENT.get(i)).append(" <=> VALUES(").append(CONTENT.get(i)).append(')');
        }
        sql.append(", createDate, NOW())");
        for (String c : CONTENT) sql.append(", ").append(c).append(" = VALUES(").append(c).append(')');
        sql.append(", lastOpDate = NOW()");
        jdbc.update(sql.toString(), args.toArray());
    }

    /** volume uuid -> the mode its stored decision says it runs (one query; volumes without a decision are absent). */
    Map<String, String> effectiveModes(List<String> volumeUuids) {
        Map<String, String> out = new HashMap<>();
        if (volumeUuids.isEmpty()) return out;
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < volumeUuids.size(); i++) in.append(i == 0 ? "?" : ", ?");
        jdbc.query("SELECT volumeUuid, effective FROM " + TABLE + " WHERE refused = 0 AND volumeUuid IN (" + in + ")",
                rs -> { out.put(rs.getString(1), rs.getString(2)); }, volumeUuids.toArray());
        return out;
    }

    /** The stored decision of a volume, or null when none was applied yet. */
    DecisionRecord find(String volumeUuid) {
        List<DecisionRecord> rows = jdbc.query("SELECT volumeUuid, vmInstanceUuid, hostUuid, operation, requested, source,"
                + " effective, refused, checks, reason, appliedIo, appliedCache, attempts, optimizedFor, createDate FROM "
                + TABLE + " WHERE volumeUuid = ?", (rs, n) -> row(rs), volumeUuid);
        return rows.isEmpty() ? null : rows.get(0);
    }

    private static DecisionRecord row(ResultSet rs) throws SQLException {
        String attempts = rs.getString(13);
        String optimizedFor = rs.getString(14);
        Timestamp at = rs.getTimestamp(15);
        return new DecisionRecord(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getString(6), rs.getString(7), rs.getBoolean(8),
                JSONObjectUtil.toCollection(rs.getString(9), ArrayList.class, DecisionRecord.CheckRecord.class),
                rs.getString(10), rs.getString(11), rs.getString(12),
                attempts == null ? null : JSONObjectUtil.toCollection(attempts, ArrayList.class, DecisionRecord.AttemptRecord.class),
                optimizedFor == null ? null : JSONObjectUtil.toObject(optimizedFor, DecisionRecord.WorkloadRecord.class),
                at == null ? null : DecisionRecord.isoUtc(at.getTime()));
    }

    private static String json(Object o) {
        return o == null ? null : JSONObjectUtil.toJsonString(o);
    }
}
