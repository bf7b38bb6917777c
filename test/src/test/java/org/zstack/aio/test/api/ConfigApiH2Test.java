package org.zstack.aio.test.api;

import org.zstack.aio.test.support.TestDatabase;

/** The API contract on the embedded H2 database. */
class ConfigApiH2Test extends ConfigApiContract {
    @Override
    TestDatabase database() throws Exception {
        return TestDatabase.h2();
    }
}
