package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.core.db.DatabaseFacade;

/**
 * What the host probe printed at the host's last connect, one row per host in AioHostIoFactsVO (V5.2.1.102), or why it
 * printed nothing. Plain SQL on ZStack's data source, as {@link IoModeDecisionStore}: the table is the module's own.
 * Read by {@link HostFactsReader}.
 */
public final class HostIoFactsStore {

    static final String TABLE = "AioHostIoFactsVO";

    private final DatabaseFacade dbf;

    public HostIoFactsStore(DatabaseFacade dbf) {
        this.dbf = dbf;
    }

    void save(String hostUuid, String output, String failure) {
        // the facade's data source as it is now, as IoModeDecisionStore says why
        new JdbcTemplate(dbf.getDataSource()).update("INSERT INTO " + TABLE + " (hostUuid, probeOutput, probeFailure,"
                + " createDate, lastOpDate) VALUES (?, ?, ?, NOW(), NOW()) ON DUPLICATE KEY UPDATE probeOutput ="
                + " VALUES(probeOutput), probeFailure = VALUES(probeFailure), lastOpDate = NOW()", hostUuid, output, failure);
    }
}
