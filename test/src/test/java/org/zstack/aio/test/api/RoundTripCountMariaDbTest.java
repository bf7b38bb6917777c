package org.zstack.aio.test.api;

import org.zstack.aio.test.support.TestDatabase;

class RoundTripCountMariaDbTest extends RoundTripCountContract {
    @Override
    TestDatabase database() throws Exception {
        return TestDatabase.mariadb();
    }
}
