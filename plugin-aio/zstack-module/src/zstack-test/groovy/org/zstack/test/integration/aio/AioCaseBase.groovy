package org.zstack.test.integration.aio

import org.zstack.testlib.EnvSpec
import org.zstack.testlib.SpringSpec
import org.zstack.testlib.SubCase

/** A plugin-aio case: ZStack's KVM components with the module (plus the case's own Spring files), one environment. */
abstract class AioCaseBase extends SubCase {
    EnvSpec env

    /** Test-only Spring files this case adds (stand-ins for closed-source ZStack parts). */
    protected List<String> extraSpringXml() {
        return []
    }

    @Override
    void clean() {
        env.delete()
    }

    @Override
    void setup() {
        useSpring(AioCaseSupport.spring(extraSpringXml() as String[]))
    }
}
