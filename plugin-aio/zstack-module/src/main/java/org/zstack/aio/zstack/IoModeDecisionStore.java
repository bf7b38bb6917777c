package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.core.db.Q;
import org.zstack.utils.gson.JSONObjectUtil;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The applied decisions, one row per volume in AioVolumeIoModeDecisionVO (the module's Flyway scripts), with the
 * columns the core names ({@link DecisionRecord#STORED_COLUMNS}). Written with plain SQL on ZStack's data source (a
 * VM start stores all its disks in one statement, an upsert JPA has no word for), read through the entity
 * {@link AioVolumeIoModeDecisionVO}; a row whose content is unchanged keeps its createDate ("decided so since"), as on the standalone
 * server.
 */
final class IoModeDecisionStore {

    static final String TABLE = "AioVolumeIoModeDecisionVO";

    /** Every stored column but the date, in the order of the INSERT. */
    private static final List<String> CONTENT = Arrays.asList("vmInstanceUuid", "hostUuid", "operation", "requested",
            "source", "effective", "refused", "checks", "reason", "appliedIo", "appliedCache", "attempts", "optimizedFor");

    private final DatabaseFacade dbf;

    IoModeDecisionStore(DatabaseFacade dbf) {
        this.dbf = dbf;
    }

    /**
     * The facade's data source as it is now, not one kept from boot: every statement goes where ZStack's own go
     * (AioIoModeCostCase counts them through a counting data source set on the facade).
     */
    private JdbcTemplate jdbc() {
        return new JdbcTemplate(dbf.getDataSource());
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
        jdbc().update(sql.toString(), args.toArray());
    }

    /** volume uuid -> the mode its stored decision says it runs (one query; volumes without a decision are absent). */
    Map<String, String> effectiveModes(List<String> volumeUuids) {
        Map<String, String> out = new HashMap<>();
        if (volumeUuids.isEmpty()) return out;
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < volumeUuids.size(); i++) in.append(i == 0 ? "?" : ", ?");
        jdbc().query("SELECT volumeUuid, effective FROM " + TABLE + " WHERE refused = 0 AND volumeUuid IN (" + in + ")",
                rs -> { out.put(rs.getString(1), rs.getString(2)); }, volumeUuids.toArray());
        return out;
    }

    /** The stored decision of a volume, or null when none was applied yet. */
    DecisionRecord find(String volumeUuid) {
        AioVolumeIoModeDecisionVO vo = Q.New(AioVolumeIoModeDecisionVO.class)
                .eq(AioVolumeIoModeDecisionVO_.volumeUuid, volumeUuid).find();
        return vo == null ? null : vo.toRecord();
    }

    /** volume uuid -> its stored decision, for the volumes that have one (one query). */
    Map<String, DecisionRecord> findAll(List<String> volumeUuids) {
        Map<String, DecisionRecord> out = new HashMap<>();
        if (volumeUuids.isEmpty()) return out;
        List<AioVolumeIoModeDecisionVO> rows = Q.New(AioVolumeIoModeDecisionVO.class)
                .in(AioVolumeIoModeDecisionVO_.volumeUuid, volumeUuids).list();
        for (AioVolumeIoModeDecisionVO vo : rows) {
            DecisionRecord r = vo.toRecord();
            out.put(r.getVolumeUuid(), r);
        }
        return out;
    }

    private static String json(Object o) {
        return o == null ? null : JSONObjectUtil.toJsonString(o);
    }
}
