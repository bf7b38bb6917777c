package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.plugin.IsoDates;
import org.zstack.aio.plugin.RefusedIoMode;
import org.zstack.aio.plugin.cache.IoFactsChange;
import org.zstack.aio.plugin.cache.IoFactsChanges;
import org.zstack.core.db.DatabaseFacade;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * The io modes libvirt or QEMU refused at a start on a host × primary storage (the core's {@link RefusedIoMode}), one
 * row per host, storage and mode in AioRefusedIoModeVO (V5.2.1.111). Plain SQL on ZStack's data source, as
 * {@link IoModeDecisionStore}: the table is the module's own. {@link HostFactsReader} reads the rows with the host's
 * facts, in its one statement; this class writes and clears them, and after each write tells every node's cache that
 * those hosts' facts changed.
 */
public final class RefusedIoModeStore {

    static final String TABLE = "AioRefusedIoModeVO";
    /** The columns {@link #row} reads, in its order, for a join on the table as {@code r}. */
    static final String COLUMNS = "r.primaryStorageUuid, r.ioMode, r.refusalId, r.refusedBy, r.refusalText, r.volumeUuid,"
            + " r.vmInstanceUuid, r.qemu, r.libvirt, r.clearedBy, r.refusedAt";

    private final DatabaseFacade dbf;
    private final IoFactsChanges changes;

    public RefusedIoModeStore(DatabaseFacade dbf, IoFactsChanges changes) {
        this.dbf = dbf;
        this.changes = changes;
    }

    private void changed(Collection<RefusedIoMode> refusals) {
        java.util.Set<String> hosts = new java.util.TreeSet<>();
        for (RefusedIoMode r : refusals) hosts.add(r.getHostUuid());
        for (String h : hosts) changes.publish(IoFactsChange.hostFacts(h)); // the host's facts carry its refusals
    }

    private JdbcTemplate jdbc() {
        // the facade's data source as it is now, as IoModeDecisionStore says why
        return new JdbcTemplate(dbf.getDataSource());
    }

    /** Remembers each refusal; a newer one of the same host, storage and mode takes the row's place. */
    public void save(List<RefusedIoMode> refusals) {
        for (RefusedIoMode r : refusals) {
            jdbc().update("INSERT INTO " + TABLE + " (hostUuid, primaryStorageUuid, ioMode, refusalId, refusedBy, refusalText,"
                    + " volumeUuid, vmInstanceUuid, qemu, libvirt, clearedBy, refusedAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    + " ON DUPLICATE KEY UPDATE refusalId = VALUES(refusalId), refusedBy = VALUES(refusedBy), refusalText ="
                    + " VALUES(refusalText), volumeUuid = VALUES(volumeUuid), vmInstanceUuid = VALUES(vmInstanceUuid), qemu ="
                    + " VALUES(qemu), libvirt = VALUES(libvirt), clearedBy = VALUES(clearedBy), refusedAt = VALUES(refusedAt)",
                    r.getHostUuid(), r.getPrimaryStorageUuid(), r.getMode(), r.getRefusalId(), r.getBy(), r.getText(),
                    r.getVolumeUuid(), r.getVmInstanceUuid(), r.getQemu(), r.getLibvirt(), String.join(",", r.getClearedBy()),
                    new Timestamp(Instant.parse(r.getRefusedAt()).toEpochMilli()));
        }
        changed(refusals);
    }

    /** The refusals remembered on a host, of one storage and one mode where given (null: any). */
    public List<RefusedIoMode> find(String hostUuid, String primaryStorageUuid, String ioMode) {
        List<Object> args = new ArrayList<>();
        args.add(hostUuid);
        StringBuilder where = new StringBuilder("r.hostUuid = ?");
        if (primaryStorageUuid != null) {
            where.append(" AND r.primaryStorageUuid = ?");
            args.add(primaryStorageUuid);
        }
        if (ioMode != null) {
            where.append(" AND r.ioMode = ?");
            args.add(ioMode);
        }
        return jdbc().query("SELECT " + COLUMNS + " FROM " + TABLE + " r WHERE " + where
                + " ORDER BY r.primaryStorageUuid, r.ioMode", (rs, i) -> row(hostUuid, rs, 1), args.toArray());
    }

    /** Forgets these refusals (each by host, storage and mode); how many rows went. */
    public int delete(Collection<RefusedIoMode> refusals) {
        int n = 0;
        for (RefusedIoMode r : refusals) {
            n += jdbc().update("DELETE FROM " + TABLE + " WHERE hostUuid = ? AND primaryStorageUuid = ? AND ioMode = ?",
                    r.getHostUuid(), r.getPrimaryStorageUuid(), r.getMode());
        }
        changed(refusals);
        return n;
    }

    /** One row read from {@link #COLUMNS}, starting at column {@code first}; null when the join found none. */
    static RefusedIoMode row(String hostUuid, ResultSet rs, int first) throws SQLException {
        String ps = rs.getString(first);
        if (ps == null) return null;
        Timestamp at = rs.getTimestamp(first + 10);
        String cleared = rs.getString(first + 9);
        return new RefusedIoMode(hostUuid, ps, rs.getString(first + 1), rs.getString(first + 2), rs.getString(first + 3),
                rs.getString(first + 4), rs.getString(first + 5), rs.getString(first + 6), at == null ? null
                : IsoDates.format(at.getTime()), rs.getString(first + 7), rs.getString(first + 8),
                cleared == null || cleared.isEmpty() ? null : Arrays.asList(cleared.split(",")));
    }
}
