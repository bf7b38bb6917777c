package org.zstack.aio.test.audit;

import org.zstack.aio.test.support.TestDatabase;

class AuditApiMariaDbTest extends AuditApiContract {
    @Override
    TestDatabase database() throws Exception {
        return TestDatabase.mariadb();
    }
}
