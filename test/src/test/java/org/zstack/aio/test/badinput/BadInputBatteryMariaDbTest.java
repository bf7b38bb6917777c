package org.zstack.aio.test.badinput;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/** The same battery on the real MariaDB, with a fixed seed: the same requests every run. */
class BadInputBatteryMariaDbTest {

    @Test
    void aFixedBatteryOnMariaDbGetsNo5xxLeavesTheContractOrChangesAnything() throws Exception {
        try (TestDatabase db = TestDatabase.mariadb(); BadInputBattery b = new BadInputBattery(db)) {
            b.run(11L, 300);
            System.out.printf("BadInputBatteryMariaDbTest: %d requests, statuses %s%n", b.sent, b.statuses);
            assertThat(b.operationsHit).containsAll(b.operations.stream().map(BadRequests.Operation::id).toList());
            assertThat(b.breaches).isEmpty();
        }
    }
}
