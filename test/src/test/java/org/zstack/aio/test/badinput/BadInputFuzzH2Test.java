package org.zstack.aio.test.badinput;

import org.junit.jupiter.api.Test;
import org.zstack.aio.test.support.TestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11 acceptance: at least 1,000 generated bad requests over every operation of /v3/api-docs on H2, a new seed
 * each run (printed; set -Daio.fuzz.seed to replay): no 5xx, no body outside the contract's shape, no change by a
 * refused request.
 */
class BadInputFuzzH2Test {

    static final int REQUESTS = Integer.getInteger("aio.fuzz.requests", 1100);

    @Test
    void noBadRequestGetsA5xxLeavesTheContractOrChangesAnything() throws Exception {
        long seed = Long.getLong("aio.fuzz.seed", System.nanoTime());
        System.out.println("BadInputFuzzH2Test seed " + seed + " (replay with -Daio.fuzz.seed=" + seed + ")");
        try (TestDatabase db = TestDatabase.h2(); BadInputBattery b = new BadInputBattery(db)) {
            long t0 = System.nanoTime();
            b.run(seed, REQUESTS);
            System.out.printf("BadInputFuzzH2Test: %d requests in %.1f s, statuses %s%n", b.sent,
                    (System.nanoTime() - t0) / 1e9, b.statuses);
            assertThat(b.sent).isGreaterThanOrEqualTo(1000);
            assertThat(b.operationsHit).as("every operation of /v3/api-docs got bad requests")
                    .containsAll(b.operations.stream().map(BadRequests.Operation::id).toList());
            assertThat(b.breaches).as("seed " + seed).isEmpty();
        }
    }
}
