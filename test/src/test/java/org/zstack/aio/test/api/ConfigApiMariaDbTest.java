package org.zstack.aio.test.api;

import org.zstack.aio.test.support.TestDatabase;

/** The API contract on real MariaDB (a fresh database per run). */
class ConfigApiMariaDbTest extends ConfigApiContract {
    @Override
    TestDatabase database() throws Exception {
        return TestDatabase.mariadb();
    }
}
