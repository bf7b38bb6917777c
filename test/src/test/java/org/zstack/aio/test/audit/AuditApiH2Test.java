package org.zstack.aio.test.audit;

import org.zstack.aio.test.support.TestDatabase;

class AuditApiH2Test extends AuditApiContract {
    @Override
    TestDatabase database() throws Exception {
        return TestDatabase.h2();
    }
}
