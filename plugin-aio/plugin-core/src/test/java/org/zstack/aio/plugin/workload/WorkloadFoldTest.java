package org.zstack.aio.plugin.workload;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.workload.WorkloadFold.Baseline;
import org.zstack.aio.plugin.workload.WorkloadFold.Counters;
import org.zstack.aio.plugin.workload.WorkloadFold.Origin;
import org.zstack.aio.plugin.workload.WorkloadFold.State;
import org.zstack.aio.plugin.workload.WorkloadFold.Step;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The delta and decay arithmetic of the observed workload, by table. */
class WorkloadFoldTest {

    private static final Origin QEMU = new Origin("h1", 7);
    private static final double HOUR = 3600;

    private static Counters c(long rr, long rb, long rt, long wr, long wb, long wt) {
        return new Counters(rr, rb, rt, wr, wb, wt);
    }

    private static State after(Counters first, Counters second, long seconds) {
        State s = WorkloadFold.advance(null, first, QEMU, 0, HOUR).state();
        return WorkloadFold.advance(s, second, QEMU, seconds * 1000, HOUR).state();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // what | delta reads bytes ns | delta writes bytes ns | seconds | rf | read bytes | write bytes | rIops | wIops | depth
            "reads only at qd1                | 100 | 409600 | 1000000000      | 0 | 0 | 0                        | 10 | 1    | 4096  | 0     | 10    | 0     | 0.1",
            "writes only with 16 in flight      | 0 | 0 | 0                      | 5000 | 20480000 | 160000000000   | 10 | 0    | 0     | 4096  | 0     | 500   | 16",
            "a quarter reads                | 100 | 409600 | 4000000000      | 300 | 4915200 | 36000000000      | 10 | 0.25 | 4096  | 16384 | 10    | 30    | 4",
            "64K sequential over 60 s           | 600 | 39321600 | 30000000000   | 600 | 39321600 | 30000000000     | 60 | 0.5  | 65536 | 65536 | 10    | 10    | 1",
    })
    void oneDeltaIsTheProfile(String what, long rr, long rb, long rt, long wr, long wb, long wt, long seconds, double rf,
                              double rB, double wB, double rIops, double wIops, double depth) {
        Counters base = c(11, 2048, 5000, 13, 4096, 7000); // counters from QEMU's start: only the delta counts
        State s = after(base, c(11 + rr, 2048 + rb, 5000 + rt, 13 + wr, 4096 + wb, 7000 + wt), seconds);
        WorkloadProfile p = WorkloadFold.profile(s.sums(), "t");
        assertThat(p.readFraction()).isCloseTo(rf, within(1e-9));
        assertThat(p.avgReadBytes()).isCloseTo(rB, within(1e-6));
        assertThat(p.avgWriteBytes()).isCloseTo(wB, within(1e-6));
        assertThat(p.readIops()).isCloseTo(rIops, within(1e-9));
        assertThat(p.writeIops()).isCloseTo(wIops, within(1e-9));
        assertThat(p.avgQueueDepth()).isCloseTo(depth, within(1e-9));
        assertThat(p.sampledSeconds()).isCloseTo(seconds, within(1e-9));
    }

    @ParameterizedTest(name = "{0} -> {5}")
    @CsvSource({
            "same QEMU and counters grew,     h1, 7, 200, ",
            "another libvirt id,           h1, 8, 200, NEW_QEMU",
            "another host (migration),     h2, 7, 200, NEW_QEMU",
            "counters went back (reset),   h1, 7, 50,  COUNTERS_WENT_BACK",
    })
    void resetsAreBaselinesNotNegativeDeltas(String what, String host, long id, long reads, Baseline expected) {
        State prev = WorkloadFold.advance(null, c(100, 409600, 1000, 0, 0, 0), QEMU, 0, HOUR).state();
        Step step = WorkloadFold.advance(prev, c(reads, reads * 4096, 2000, 0, 0, 0), new Origin(host, id), 10_000, HOUR);
        assertThat(step.baseline()).isEqualTo(expected);
        if (expected != null) {
            assertThat(step.state().sums()).as("a baseline adds nothing").isEqualTo(prev.sums());
            assertThat(step.state().last().rdReqs()).as("and is the next delta's start").isEqualTo(reads);
        } else {
            assertThat(step.state().sums().rdReqs()).isEqualTo(100);
        }
    }

    @Test
    void theFirstSampleIsOnlyABaselineAndAClockThatStandsStillAddsNothing() {
        Step first = WorkloadFold.advance(null, c(5, 5, 5, 5, 5, 5), QEMU, 1000, HOUR);
        assertThat(first.baseline()).isEqualTo(Baseline.FIRST);
        assertThat(WorkloadFold.profile(first.state().sums(), "t")).isNull();
        Step same = WorkloadFold.advance(first.state(), c(6, 6, 6, 6, 6, 6), QEMU, 1000, HOUR);
        assertThat(same.baseline()).isEqualTo(Baseline.CLOCK_WENT_BACK);
    }

    @ParameterizedTest(name = "old sample {0} s before a new one: weight {1}")
    @CsvSource({
            "0,     1",
            "3600,  0.5",
            "7200,  0.25",
            "36000, 0.0009765625",
    })
    void olderSamplesDecayByHalfEachHalfLife(long gapSeconds, double weight) {
        // 10 s of reads (4K, 100/s), then gapSeconds of nothing ending in 10 s of writes (4K, 100/s)
        State s = after(c(0, 0, 0, 0, 0, 0), c(1000, 4096000, 0, 0, 0, 0), 10);
        s = WorkloadFold.advance(s, c(1000, 4096000, 0, 0, 0, 0), QEMU, (10 + gapSeconds) * 1000, HOUR).state();
        s = WorkloadFold.advance(s, c(1000, 4096000, 0, 1000, 4096000, 0), QEMU, (20 + gapSeconds) * 1000, HOUR).state();
        double oldReads = 1000 * weight * Math.pow(2, -10 / HOUR);
        WorkloadProfile p = WorkloadFold.profile(s.sums(), "t");
        assertThat(p.readFraction()).isCloseTo(oldReads / (oldReads + 1000), within(1e-9));
        assertThat(p.avgReadBytes()).as("a shape does not decay").isCloseTo(4096, within(1e-6));
        assertThat(p.sampledSeconds()).isCloseTo(20 + gapSeconds, within(1e-9));
    }

    @Test
    void idleTimeLowersTheRatesButKeepsTheShape() {
        State s = after(c(0, 0, 0, 0, 0, 0), c(1000, 4096000, 0, 3000, 3 * 4096000, 40_000_000_000L), 10);
        WorkloadProfile busy = WorkloadFold.profile(s.sums(), "t");
        s = WorkloadFold.advance(s, s.last(), QEMU, 3610_000, HOUR).state(); // an hour of nothing
        WorkloadProfile idle = WorkloadFold.profile(s.sums(), "t");
        assertThat(idle.readFraction()).isCloseTo(busy.readFraction(), within(1e-12));
        assertThat(idle.avgWriteBytes()).isCloseTo(busy.avgWriteBytes(), within(1e-9));
        assertThat(idle.writeIops()).isLessThan(busy.writeIops() / 100);
        assertThat(idle.avgQueueDepth()).isLessThan(busy.avgQueueDepth() / 100);
    }
}
