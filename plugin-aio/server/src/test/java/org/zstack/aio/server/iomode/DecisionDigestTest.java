package org.zstack.aio.server.iomode;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DecisionDigestTest {

    @Test
    void fieldBoundariesAndNullsCount() {
        assertThat(DecisionDigest.of("ab", "c")).isNotEqualTo(DecisionDigest.of("a", "bc"));
        assertThat(DecisionDigest.of((String) null)).isNotEqualTo(DecisionDigest.of(""));
        assertThat(DecisionDigest.of("a", null)).isNotEqualTo(DecisionDigest.of("a")).isNotEqualTo(DecisionDigest.of(null, "a"));
        assertThat(DecisionDigest.of("native", "[{\"check\":\"cache\"}]")).hasSize(44)
                .isEqualTo(DecisionDigest.of("native", "[{\"check\":\"cache\"}]"));
    }
}
