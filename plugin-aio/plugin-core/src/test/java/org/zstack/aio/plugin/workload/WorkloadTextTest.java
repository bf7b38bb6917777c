package org.zstack.aio.plugin.workload;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.workload.WorkloadFold.Counters;
import org.zstack.aio.plugin.workload.WorkloadFold.Origin;
import org.zstack.aio.plugin.workload.WorkloadFold.State;

import static org.assertj.core.api.Assertions.assertThat;

/** A volume's fold state and profile as a platform stores them in text columns, read back equal. */
class WorkloadTextTest {

    private static State twoSamples() {
        Origin q = new Origin("0f1e2d3c4b5a69788796a5b4c3d2e1f0", 4);
        State s = WorkloadFold.advance(null, new Counters(10, 40960, 1000000, 5, 20480, 3000000), q, 1795772681000L, 3600).state();
        return WorkloadFold.advance(s, new Counters(310, 1269760, 301000000, 2705, 11079680, 81003000000L), q, 1795772981000L, 3600).state();
    }

    @Test
    void aStateReadBackIsTheStateWrittenSoTheNextSampleContinuesFromIt() {
        State s = twoSamples();
        String line = WorkloadText.state(s);
        assertThat(line).startsWith("host=0f1e2d3c4b5a69788796a5b4c3d2e1f0 domain=4 at=1795772981000 last=310,1269760,301000000,2705,");
        assertThat(WorkloadText.parseState(line)).isEqualTo(s);
        // the next sample from the state read back folds exactly as from the one kept in memory
        Counters next = new Counters(400, 1638400, 390000000, 5000, 20480000, 150000000000L);
        assertThat(WorkloadFold.advance(WorkloadText.parseState(line), next, s.origin(), 1795773281000L, 3600).state())
                .isEqualTo(WorkloadFold.advance(s, next, s.origin(), 1795773281000L, 3600).state());
    }

    @Test
    void aProfileReadBackIsTheProfileWritten() {
        WorkloadProfile p = WorkloadFold.profile(twoSamples().sums(), "2026-11-27T13:00:00.000Z");
        assertThat(p.describe()).isEqualTo("90 % 4K writes, depth ~0.3");
        assertThat(WorkloadText.parseProfile(WorkloadText.profile(p))).isEqualTo(p);
    }

    @Test
    void whatCannotBeReadCountsAsNeverSampled() {
        for (String bad : new String[]{null, "", "host=h domain=x at=1 last=1,2,3,4,5,6 sums=1,2,3,4,5,6,7,8",
                "host=h domain=1 at=1 last=1,2,3 sums=1,2,3,4,5,6,7,8", "domain=1 at=1 last=1,2,3,4,5,6 sums=1,2,3,4,5,6,7,8"}) {
            assertThat(WorkloadText.parseState(bad)).as("%s", bad).isNull();
        }
        assertThat(WorkloadText.parseProfile(null)).isNull();
        assertThat(WorkloadText.parseProfile("readFraction=2 avgReadBytes=0 avgWriteBytes=0 readIops=0 writeIops=0"
                + " avgQueueDepth=0 sampledSeconds=0 sampledAt=x")).as("a read share above 1").isNull();
        assertThat(WorkloadText.parseProfile("readFraction=0.5")).isNull();
    }
}
