package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The closeness weights (the shipped ones and others from the rules file) and the reason's description of a workload, by table. */
class WorkloadMatchTest {

    /** The weights of conf/aio/io-mode-rules.yaml. */
    private static final WorkloadMatch MATCH = Facts.RULES.workloadMatch();

    private static final WorkloadCell READ_4K_QD1 = WorkloadAutoProperties.cell(1, 4096, 1, 1000.0, 1100.0, 1200.0);
    private static final WorkloadCell WRITE_4K_QD64 = WorkloadAutoProperties.cell(0, 4096, 64, 10_000.0, 24_000.0, 20_000.0);
    private static final WorkloadCell WRITE_64K_QD16 = WorkloadAutoProperties.cell(0, 65536, 16, 2000.0, 1800.0, 2100.0);

    @ParameterizedTest(name = "rf={0} size={1} depth={2} -> distance to 4K writes qd64 {3}")
    @CsvSource({
            "0,    4096,  64,  0",         // the same workload
            "0,    8192,  64,  1",         // twice the size: one octave
            "0,    4096,  16,  2",         // a quarter of the depth: two octaves
            "0.25, 4096,  64,  1",         // a quarter reads: 0.25 x 4
            "1,    4096,  64,  4",         // all reads: a direction away
            "0,    65536, 4,   5.656854",  // 4 octaves of size and 4 of depth: sqrt(32)
    })
    void distance(double rf, double size, double depth, double expected) {
        WorkloadProfile p = new WorkloadProfile(rf, size, size, 10, 10, depth, 60, null);
        assertThat(MATCH.distance(WRITE_4K_QD64, p)).isCloseTo(expected, within(1e-6));
    }

    @Test
    void anExactCellTakesThatCellsRatiosAlone() {
        WorkloadProfile p = new WorkloadProfile(0, 4096, 4096, 0, 500, 64, 60, null);
        Map<IoMode, Double> r = MATCH.expectedRatios(List.of(READ_4K_QD1, WRITE_4K_QD64, WRITE_64K_QD16), p);
        assertThat(r.get(IoMode.THREADS)).isCloseTo(1, within(1e-12));
        assertThat(r.get(IoMode.NATIVE)).isCloseTo(2.4, within(1e-12));
        assertThat(r.get(IoMode.IO_URING)).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void aProfileBetweenCellsLeansToTheNearerOne() {
        // 4K writes at depth 32: one octave from the qd64 cell, much further from the others
        WorkloadProfile p = new WorkloadProfile(0, 4096, 4096, 0, 500, 32, 60, null);
        Map<IoMode, Double> r = MATCH.expectedRatios(List.of(READ_4K_QD1, WRITE_4K_QD64, WRITE_64K_QD16), p);
        assertThat(r.get(IoMode.NATIVE)).isBetween(1.5, 2.4);
        assertThat(r.get(IoMode.NATIVE)).isGreaterThan(r.get(IoMode.IO_URING));
    }

    @Test
    void aModeMissingOnAWeightedCellIsNotScored() {
        WorkloadCell noNative = WorkloadAutoProperties.cell(0, 4096, 16, 5000.0, null, 6000.0);
        WorkloadProfile p = new WorkloadProfile(0, 4096, 4096, 0, 500, 32, 60, null);
        assertThat(MATCH.expectedRatios(List.of(WRITE_4K_QD64, noNative), p)).containsOnlyKeys(IoMode.THREADS, IoMode.IO_URING);
    }

    @ParameterizedTest(name = "weights size={0} depth={1} read={2}: rf={3} size={4} depth={5} -> {6}")
    @CsvSource({
            "2, 1, 4,   0,    8192,  64, 2",         // one octave of size counts twice
            "1, 0, 4,   0,    4096,  1,  0",         // depth ignored: 6 octaves of depth are the same workload
            "1, 1, 0,   1,    4096,  64, 0",         // direction ignored: reads are 4K writes' twin
            "1, 1, 10,  0.25, 4096,  64, 2.5",       // a quarter reads x 10
            "0.5, 3, 1, 0.5,  16384, 32, 3.201562",  // sqrt(1^2 + 3^2 + 0.5^2)
    })
    void distanceWithOtherWeights(double sizeW, double depthW, double readW, double rf, double size, double depth, double expected) {
        WorkloadMatch m = new WorkloadMatch(sizeW, depthW, readW, 2, 0.01);
        WorkloadProfile p = new WorkloadProfile(rf, size, size, 10, 10, depth, 60, null);
        assertThat(m.distance(WRITE_4K_QD64, p)).isCloseTo(expected, within(1e-6));
    }

    @ParameterizedTest(name = "power {0}: native {1}")
    @CsvSource({
            // 8K writes at qd64: 4K writes qd64 (native 2.4) at distance 1, 64K writes qd16 (native 0.9) at sqrt(9 + 4):
            // weights 1/d^p, native = exp((w1 ln 2.4 + w2 ln 0.9) / (w1 + w2))
            "1, 1.939639",
            "2, 2.237613",
            "4, 2.386193",
    })
    void aHigherPowerLeansHarderOnTheNearestCell(double power, double expectedNative) {
        WorkloadProfile p = new WorkloadProfile(0, 8192, 8192, 0, 500, 64, 60, null);
        Map<IoMode, Double> r = new WorkloadMatch(1, 1, 4, power, 0.01).expectedRatios(List.of(WRITE_4K_QD64, WRITE_64K_QD16), p);
        assertThat(r.get(IoMode.NATIVE)).isCloseTo(expectedNative, within(1e-6));
    }

    @ParameterizedTest(name = "idleIops {0}, {1} + {2} requests/s -> idle {3}")
    @CsvSource({
            "0.01, 0,     0,     true",
            "0.01, 0.004, 0.005, true",
            "0.01, 0.005, 0.005, false",   // at the threshold: not idle
            "5,    2,     2.9,   true",
            "5,    2,     3,     false",
            "0,    0,     0,     false",   // 0: no profile is ever idle
    })
    void idleBelowTheThreshold(double idleIops, double readIops, double writeIops, boolean idle) {
        WorkloadProfile p = new WorkloadProfile(0.5, 4096, 4096, readIops, writeIops, 1, 60, null);
        assertThat(new WorkloadMatch(1, 1, 4, 2, idleIops).idle(p)).isEqualTo(idle);
    }

    @Test
    void theShippedWeightsAreTheDefaults() {
        assertThat(MATCH).isEqualTo(WorkloadMatch.DEFAULT);
        assertThat(List.of(MATCH.sizeWeight(), MATCH.depthWeight(), MATCH.readFractionWeight(), MATCH.distancePower(),
                MATCH.idleIops())).containsExactly(1.0, 1.0, 4.0, 2.0, 0.01);
    }

    @ParameterizedTest(name = "{5}")
    @CsvSource(delimiter = '|', value = {
            "-1   | 1 | 4 | 2  | 0.01 | workloadMatch.sizeWeight must be in [0, 1000]",
            "1    | NaN | 4 | 2 | 0.01 | workloadMatch.depthWeight must be in [0, 1000]",
            "1    | 1 | 1001 | 2 | 0.01 | workloadMatch.readFractionWeight must be in [0, 1000]",
            "0    | 0 | 0 | 2  | 0.01 | at least one of sizeWeight, depthWeight and readFractionWeight must be > 0",
            "1    | 1 | 4 | 0  | 0.01 | workloadMatch.distancePower must be in (0, 10]",
            "1    | 1 | 4 | 11 | 0.01 | workloadMatch.distancePower must be in (0, 10]",
            "1    | 1 | 4 | 2  | -0.5 | workloadMatch.idleIops must be a finite number >= 0",
            "1    | 1 | 4 | 2  | Infinity | workloadMatch.idleIops must be a finite number >= 0",
    })
    void badTunablesAreRefusedNamingTheKey(double sizeW, double depthW, double readW, double power, double idle, String message) {
        assertThatThrownBy(() -> new WorkloadMatch(sizeW, depthW, readW, power, idle))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "78 % 4K writes, depth ~40 | 0.22 | 16384  | 4096    | 40",
            "90 % 64K reads, depth ~1.5 | 0.9  | 65536  | 512     | 1.5",
            "50 % 1M reads, depth ~16  | 0.5  | 1048576 | 4096   | 16",
            "100 % 512B writes, depth ~0.3 | 0 | 0      | 512     | 0.3",
    })
    void describe(String expected, double rf, double readBytes, double writeBytes, double depth) {
        assertThat(new WorkloadProfile(rf, readBytes, writeBytes, 1, 1, depth, 60, null).describe()).isEqualTo(expected);
    }
}
