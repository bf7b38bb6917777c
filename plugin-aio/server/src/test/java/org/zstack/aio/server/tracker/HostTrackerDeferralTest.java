package org.zstack.aio.server.tracker;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.LocalDateTime;

import static org.assertj.core.api.Assertions.assertThat;

/** How long the tracker leaves a host that did not answer before asking again (HostTracker#deferral). */
class HostTrackerDeferralTest {

    static final LocalDateTime NOW = LocalDateTime.of(2026, 1, 1, 12, 0);
    static final Duration INTERVAL = Duration.ofSeconds(10);

    static Duration deferral(boolean enrolled, Duration downFor) {
        return HostTracker.deferral(enrolled, NOW.minus(downFor), NOW, INTERVAL);
    }

    @Test
    void aHostThatJustStoppedAnsweringIsAskedAgainAtTheNextRound() {
        assertThat(deferral(true, Duration.ZERO)).as("the usual round").isNull();
        assertThat(deferral(true, Duration.ofSeconds(20))).as("half of 20 s is one interval").isNull();
    }

    @Test
    void aHostDownLongerIsAskedAfterHalfItsDowntimeAtMostAMinute() {
        assertThat(deferral(true, Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(15));
        assertThat(deferral(true, Duration.ofMinutes(2))).isEqualTo(Duration.ofSeconds(60));
        assertThat(deferral(true, Duration.ofDays(3))).isEqualTo(HostTracker.UNREACHABLE_MAX_DEFERRAL);
    }

    @Test
    void aHostThisServerCannotCallIsAskedEveryFiveMinutes() {
        assertThat(deferral(false, Duration.ZERO)).isEqualTo(Duration.ofMinutes(5));
        assertThat(deferral(false, Duration.ofDays(3))).isEqualTo(HostTracker.NOT_ENROLLED_DEFERRAL);
    }

    @Test
    void aLongIntervalIsNeverShortened() {
        assertThat(HostTracker.deferral(true, NOW.minusMinutes(10), NOW, Duration.ofSeconds(120))).isNull();
    }
}
