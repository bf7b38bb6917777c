package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.core.db.DatabaseFacade;
import org.zstack.utils.gson.JSONObjectUtil;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The applied decisions, one row per volume in AioVolumeIoModeDecisionVO (created by the module's Flyway upgrade
 * script). Plain SQL on ZStack's data source: the table is the module's own, and a JPA entity would have to be added
 * to ZStack's persistence.xml. A VM start stores all its disks in one statement.
 */
final class IoModeDecisionStore {

    static final String TABLE = "AioVolumeIoModeDecisionVO";

    private final JdbcTemplate jdbc;

    IoModeDecisionStore(DatabaseFacade dbf) {
        this.jdbc = new JdbcTemplate(dbf.getDataSource());
    }

    void save(List<VolumeIoModeDecisionInventory> decisions) {
        if (decisions.isEmpty()) return;
        StringBuilder sql = new StringBuilder("INSERT INTO " + TABLE + " (volumeUuid, vmInstanceUuid, hostUuid, operation,"
                + " requested, source, effective, refused, checks, reason, createDate, lastOpDate) VALUES ");
        List<Object> args = new ArrayList<>();
        for (int i = 0; i < decisions.size(); i++) {
            VolumeIoModeDecisionInventory d = decisions.get(i);
            sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NOW(), NOW())");
            args.addAll(Arrays.asList(d.getVolumeUuid(), d.getVmInstanceUuid(), d.getHostUuid(), d.getOperation(),
                    d.getRequested(), d.getSource(), d.getEffective(), d.isRefused(),
                    JSONObjectUtil.toJsonString(d.getChecks()), d.getReason()));
        }
        sql.append(" ON DUPLICATE KEY UPDATE vmInstanceUuid = VALUES(vmInstanceUuid), hostUuid = VALUES(hostUuid),"
                + " operation = VALUES(operation), requested = VALUES(requested), source = VALUES(source),"
                + " effective = VALUES(effective), refused = VALUES(refused), checks = VALUES(checks),"
                + " reason = VALUES(reason), lastOpDate = NOW()");
        jdbc.update(sql.toString(), args.toArray());
    }

    /** The stored decision of a volume, or null when none was applied yet. */
    VolumeIoModeDecisionInventory find(String volumeUuid) {
        List<VolumeIoModeDecisionInventory> rows = jdbc.query("SELECT volumeUuid, vmInstanceUuid, hostUuid, operation,"
                + " requested, source, effective, refused, checks, reason, lastOpDate FROM " + TABLE
                + " WHERE volumeUuid = ?", (rs, n) -> {
            VolumeIoModeDecisionInventory d = new VolumeIoModeDecisionInventory();
            d.setVolumeUuid(rs.getString(1));
            d.setVmInstanceUuid(rs.getString(2));
            d.setHostUuid(rs.getString(3));
            d.setOperation(rs.getString(4));
            d.setRequested(rs.getString(5));
            d.setSource(rs.getString(6));
            d.setEffective(rs.getString(7));
            d.setRefused(rs.getBoolean(8));
            d.setChecks(JSONObjectUtil.toCollection(rs.getString(9), ArrayList.class, IoModeCheckInventory.class));
            d.setReason(rs.getString(10));
            Timestamp t = rs.getTimestamp(11);
            d.setLastOpDate(t);
            return d;
        }, volumeUuid);
        return rows.isEmpty() ? null : rows.get(0);
    }
}
