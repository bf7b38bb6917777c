package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.core.db.DatabaseFacade;

import java.sql.Timestamp;
import java.util.List;

/**
 * What the host probe printed at the host's last connect, one row per host in AioHostIoFactsVO (V5.2.1.102). Plain SQL
 * on ZStack's data source, as {@link IoModeDecisionStore}: the table is the module's own.
 */
final class HostIoFactsStore {

    static final String TABLE = "AioHostIoFactsVO";

    /** One host's last probe: its output or why it has none, and when. */
    static final class Probed {
        final String output;
        final String failure;
        final Timestamp at;

        Probed(String output, String failure, Timestamp at) {
            this.output = output;
            this.failure = failure;
            this.at = at;
        }
    }

    private final DatabaseFacade dbf;

    HostIoFactsStore(DatabaseFacade dbf) {
        this.dbf = dbf;
    }

    /** The facade's data source as it is now, for the reason {@link IoModeDecisionStore} gives. */
    private JdbcTemplate jdbc() {
        return new JdbcTemplate(dbf.getDataSource());
    }

    void save(String hostUuid, String output, String failure) {
        jdbc().update("INSERT INTO " + TABLE + " (hostUuid, probeOutput, probeFailure, createDate, lastOpDate)"
                + " VALUES (?, ?, ?, NOW(), NOW()) ON DUPLICATE KEY UPDATE probeOutput = VALUES(probeOutput),"
                + " probeFailure = VALUES(probeFailure), lastOpDate = NOW()", hostUuid, output, failure);
    }

    /** The host's last probe, or null when it was never probed. */
    Probed find(String hostUuid) {
        List<Probed> rows = jdbc().query("SELECT probeOutput, probeFailure, lastOpDate FROM " + TABLE + " WHERE hostUuid = ?",
                (rs, n) -> new Probed(rs.getString(1), rs.getString(2), rs.getTimestamp(3)), hostUuid);
        return rows.isEmpty() ? null : rows.get(0);
    }
}
