package org.zstack.test.integration.aio

import org.zstack.testlib.Test

/**
 * Runs every plugin-aio case (the *Case classes of this package) in one management node, as ZStack's own suites do:
 * one boot and one test compilation for all of them. The Spring set holds the test-only stand-ins; each acts only on
 * what its case sets up (a VM with a bound admin hook, a primary storage of type SharedBlock, a volume named as
 * vhost-user, a VM listed for a migration that moves its disks).
 */
class AioIoModeTest extends Test {
    @Override
    void setup() {
        useSpring(AioCaseSupport.spring("AioAdminXmlHookDelivery.xml", "AioSharedBlockStandIn.xml", "AioVhostUserStandIn.xml",
                "AioMigrationDiskMoveStandIn.xml"))
    }

    @Override
    void environment() {
    }

    @Override
    void test() {
        runSubCases()
    }
}
