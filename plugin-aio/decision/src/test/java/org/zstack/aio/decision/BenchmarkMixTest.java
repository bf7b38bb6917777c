package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;
import org.zstack.aio.decision.bench.DecisionBenchmark;
import org.zstack.aio.decision.bench.WorkloadDecisionBenchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import java.util.HashSet;
import java.util.Set;

/** Keeps the JMH benchmark from rotting: its set-up validates the mix (every outcome present), and decide() cycles. */
class BenchmarkMixTest {

    @Test
    void benchmarkSetUpAcceptsItsMixAndDecides() {
        DecisionBenchmark b = new DecisionBenchmark();
        assertThatCode(b::setUp).doesNotThrowAnyException();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            IoModeDecision d = b.decide();
            assertThat(d).isNotNull();
            seen.add(d.volumeUuid() + "/" + d.requested() + "/" + d.hostUuid());
        }
        assertThat(seen).as("decide() walks through the mix").hasSizeGreaterThan(10);
    }

    @Test
    void workloadBenchmarkSetUpAcceptsItsMixAndDecides() {
        WorkloadDecisionBenchmark b = new WorkloadDecisionBenchmark();
        assertThatCode(b::setUp).doesNotThrowAnyException();
        Set<String> picks = new HashSet<>();
        for (int i = 0; i < 48; i++) picks.add(b.decide().effectiveWire());
        assertThat(picks).as("the workloads lead to different modes").hasSizeGreaterThan(1);
    }
}
