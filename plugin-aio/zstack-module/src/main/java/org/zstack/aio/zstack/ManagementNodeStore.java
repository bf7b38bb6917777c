package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.core.db.DatabaseFacade;

import java.sql.Timestamp;
import java.util.List;

/** The management nodes that run the module, AioManagementNodeVO (V5.2.1.104), one row per ZStack ManagementNodeVO. */
public final class ManagementNodeStore {

    static final String TABLE = "AioManagementNodeVO";

    /** One node's row. */
    static final class Node {
        final String uuid;
        final String hostName;
        final String moduleVersion;
        final String builtForZStack;
        final Timestamp since;

        Node(String uuid, String hostName, String moduleVersion, String builtForZStack, Timestamp since) {
            this.uuid = uuid;
            this.hostName = hostName;
            this.moduleVersion = moduleVersion;
            this.builtForZStack = builtForZStack;
            this.since = since;
        }
    }

    private final JdbcTemplate jdbc;

    public ManagementNodeStore(DatabaseFacade dbf) {
        this.jdbc = new JdbcTemplate(dbf.getDataSource());
    }

    void save(String uuid, String hostName, ModuleVersion v) {
        jdbc.update("INSERT INTO " + TABLE + " (managementNodeUuid, hostName, moduleVersion, builtForZStack, createDate,"
                + " lastOpDate) VALUES (?, ?, ?, ?, NOW(), NOW()) ON DUPLICATE KEY UPDATE hostName = VALUES(hostName),"
                + " moduleVersion = VALUES(moduleVersion), builtForZStack = VALUES(builtForZStack), createDate = NOW(),"
                + " lastOpDate = NOW()", uuid, hostName, v.version, v.builtForZStack);
    }

    void delete(String uuid) {
        jdbc.update("DELETE FROM " + TABLE + " WHERE managementNodeUuid = ?", uuid);
    }

    /** Every management node ZStack knows, with the module's row where the node runs it (null fields otherwise). */
    List<Node> list() {
        return jdbc.query("SELECT m.uuid, m.hostName, a.moduleVersion, a.builtForZStack, a.createDate FROM ManagementNodeVO m"
                        + " LEFT JOIN " + TABLE + " a ON a.managementNodeUuid = m.uuid ORDER BY m.joinDate, m.uuid",
                (rs, n) -> new Node(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getTimestamp(5)));
    }
}
