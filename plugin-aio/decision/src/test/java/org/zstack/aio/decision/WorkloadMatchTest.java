package org.zstack.aio.decision;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The closeness weights and the reason's description of a workload, by table. */
class WorkloadMatchTest {

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
        assertThat(WorkloadMatch.distance(WRITE_4K_QD64, p)).isCloseTo(expected, within(1e-6));
    }

    @Test
    void anExactCellTakesThatCellsRatiosAlone() {
        WorkloadProfile p = new WorkloadProfile(0, 4096, 4096, 0, 500, 64, 60, null);
        Map<IoMode, Double> r = WorkloadMatch.expectedRatios(List.of(READ_4K_QD1, WRITE_4K_QD64, WRITE_64K_QD16), p);
        assertThat(r.get(IoMode.THREADS)).isCloseTo(1, within(1e-12));
        assertThat(r.get(IoMode.NATIVE)).isCloseTo(2.4, within(1e-12));
        assertThat(r.get(IoMode.IO_URING)).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void aProfileBetweenCellsLeansToTheNearerOne() {
        // 4K writes at depth 32: one octave from the qd64 cell, much further from the others
        WorkloadProfile p = new WorkloadProfile(0, 4096, 4096, 0, 500, 32, 60, null);
        Map<IoMode, Double> r = WorkloadMatch.expectedRatios(List.of(READ_4K_QD1, WRITE_4K_QD64, WRITE_64K_QD16), p);
        assertThat(r.get(IoMode.NATIVE)).isBetween(1.5, 2.4);
        assertThat(r.get(IoMode.NATIVE)).isGreaterThan(r.get(IoMode.IO_URING));
    }

    @Test
    void aModeMissingOnAWeightedCellIsNotScored() {
        WorkloadCell noNative = WorkloadAutoProperties.cell(0, 4096, 16, 5000.0, null, 6000.0);
        WorkloadProfile p = new WorkloadProfile(0, 4096, 4096, 0, 500, 32, 60, null);
        assertThat(WorkloadMatch.expectedRatios(List.of(WRITE_4K_QD64, noNative), p)).containsOnlyKeys(IoMode.THREADS, IoMode.IO_URING);
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
