package org.zstack.sdk;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.zstack.aio.decision.IoMode;

import static org.assertj.core.api.Assertions.assertThat;

class IoModeDecisionInventoryTest {

    @ParameterizedTest
    @CsvSource(nullValues = "null", value = {"threads, THREADS", "native, NATIVE", "io_uring, IO_URING",
                                             "not-applicable, null", "null, null"})
    void effectiveModeReadsTheApiName(String effective, IoMode expected) {
        IoModeDecisionInventory d = new IoModeDecisionInventory();
        d.effective = effective;
        assertThat(d.effectiveMode()).isEqualTo(expected);
    }
}
