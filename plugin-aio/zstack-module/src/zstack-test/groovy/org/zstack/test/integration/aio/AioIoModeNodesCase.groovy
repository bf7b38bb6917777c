package org.zstack.test.integration.aio

import org.springframework.jdbc.core.JdbcTemplate
import org.zstack.core.Platform
import org.zstack.core.db.DatabaseFacade
import org.zstack.header.managementnode.ManagementNodeInventory
import org.zstack.header.managementnode.ManagementNodeVO

/**
 * The management nodes that run the module: the test's node has its row (AioManagementNodeVO) with the module's
 * version, written when it joined; GetIoModeManagementNodes (the module's SDK action) lists every ZStack node and says
 * which runs the module; a node ZStack reports gone (ManagementNodeChangeListener.nodeLeft) loses its row.
 */
class AioIoModeNodesCase extends AioCaseBase {
    static final String OTHER = "0123456789abcdef0123456789abcdef"

    @Override
    void environment() {
        env = AioEnvs.localStorage()
    }

    @Override
    void test() {
        env.create {
            testThisNodeRunsTheModule()
            testANodeWithoutTheModuleAndOneThatLeft()
        }
    }

    def nodes() {
        def a = AioCaseSupport.sdk("GetIoModeManagementNodesAction")
        a.sessionId = adminSession()
        def r = a.call()
        assert r.error == null: "GetIoModeManagementNodes failed: ${r.error}"
        return r.value.inventories
    }

    void testThisNodeRunsTheModule() {
        String me = Platform.getManagementServerId()
        def mine = nodes().find { it.managementNodeUuid == me }
        assert mine != null && mine.runsModule
        assert mine.moduleVersion ==~ /\d+\.\d+\.\d+(-SNAPSHOT)?/: mine.moduleVersion
        assert mine.builtForZStack == "5.2.0"
        assert mine.moduleStartedAt ==~ /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/
        JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
        assert jdbc.queryForObject("SELECT moduleVersion FROM AioManagementNodeVO WHERE managementNodeUuid = ?", String.class, me) == mine.moduleVersion
    }

    void testANodeWithoutTheModuleAndOneThatLeft() {
        JdbcTemplate jdbc = new JdbcTemplate(bean(DatabaseFacade.class).dataSource)
        // a second node of the cluster that does not run the module (a rolling install half done): ZStack's row only,
        // JOINING, so that this node's heartbeat check (it reads RUNNING rows) never puts it in the hash ring
        jdbc.update("INSERT INTO ManagementNodeVO (uuid, hostName, port, state, joinDate, heartBeat) VALUES (?, '127.0.0.2', 8080, 'JOINING', NOW(), NOW())", OTHER)
        try {
            def other = nodes().find { it.managementNodeUuid == OTHER }
            assert other != null && !other.runsModule && other.moduleVersion == null
            // now it runs the module, then ZStack reports it gone
            jdbc.update("INSERT INTO AioManagementNodeVO (managementNodeUuid, hostName, moduleVersion, createDate, lastOpDate) VALUES (?, '127.0.0.2', '0.9.0', NOW(), NOW())", OTHER)
            assert nodes().find { it.managementNodeUuid == OTHER }.moduleVersion == "0.9.0"
            ManagementNodeInventory inv = ManagementNodeInventory.valueOf(bean(DatabaseFacade.class).findByUuid(OTHER, ManagementNodeVO.class))
            bean(Class.forName("org.zstack.aio.zstack.AioManagementNodeTracker")).nodeLeft(inv)
            assert jdbc.queryForObject("SELECT COUNT(*) FROM AioManagementNodeVO WHERE managementNodeUuid = ?", Integer.class, OTHER) == 0
            // this node's row is untouched
            assert nodes().find { it.managementNodeUuid == Platform.getManagementServerId() }.runsModule
        } finally {
            jdbc.update("DELETE FROM ManagementNodeVO WHERE uuid = ?", OTHER)
        }
    }
}
