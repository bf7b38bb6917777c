package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class IsoDatesTest {

    @Test
    void everyDateHasItsMillisecondsSoTextOrderIsTimeOrder() {
        long whole = Instant.parse("2026-11-26T04:31:11Z").toEpochMilli();
        assertThat(IsoDates.format(whole)).isEqualTo("2026-11-26T04:31:11.000Z");
        assertThat(IsoDates.format(whole + 123)).isEqualTo("2026-11-26T04:31:11.123Z");
        assertThat(IsoDates.format(whole).compareTo(IsoDates.format(whole + 123))).isNegative();
        assertThat(Instant.parse(IsoDates.format(whole + 7)).toEpochMilli()).isEqualTo(whole + 7);
    }
}
