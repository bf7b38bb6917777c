package org.zstack.aio.test.api;

import org.zstack.aio.test.support.TestDatabase;

class RoundTripCountH2Test extends RoundTripCountContract {
    @Override
    TestDatabase database() throws Exception {
        return TestDatabase.h2();
    }
}
