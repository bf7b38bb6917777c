package org.zstack.aio.agent.trust;

import org.junit.jupiter.api.Test;
import org.zstack.aio.agent.api.trust.AgentAuth;
import org.zstack.aio.agent.api.trust.EnrollmentToken;

import java.time.Instant;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EnrollmentTokenTest {

    private static byte[] bytes(int v) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) v);
        return b;
    }

    @Test
    void roundTripsAndNeverPrintsTheSecret() {
        EnrollmentToken t = new EnrollmentToken(bytes(1), bytes(2), Instant.ofEpochSecond(2_000_000_000L));
        EnrollmentToken back = EnrollmentToken.parse(t.encode());
        assertThat(back).isEqualTo(t);
        assertThat(back.expired(Instant.ofEpochSecond(1_999_999_999L))).isFalse();
        assertThat(back.expired(Instant.ofEpochSecond(2_000_000_000L))).isTrue();
        assertThat(t.toString()).doesNotContain(AgentAuth.header(bytes(2)).substring(AgentAuth.SCHEME.length()));
        assertThat(new EnrollmentToken(bytes(1), bytes(2), null).expired(Instant.MAX)).isFalse();
    }

    @Test
    void malformedTruncatedOrForeignTextIsRefusedWithASentence() {
        String good = new EnrollmentToken(bytes(1), bytes(2), null).encode();
        assertThatThrownBy(() -> EnrollmentToken.parse(null)).hasMessageContaining("no agent enrollment token");
        assertThatThrownBy(() -> EnrollmentToken.parse("  ")).hasMessageContaining("no agent enrollment token");
        assertThatThrownBy(() -> EnrollmentToken.parse("hello")).hasMessageContaining("does not start with");
        assertThatThrownBy(() -> EnrollmentToken.parse(good.substring(0, good.length() - 10))).hasMessageContaining("truncated");
        assertThatThrownBy(() -> EnrollmentToken.parse(good + "AAAA")).hasMessageContaining("too long");
        assertThatThrownBy(() -> EnrollmentToken.parse(good.replace('A', '*') + "*")).hasMessageContaining("base64url");
        assertThatThrownBy(() -> EnrollmentToken.parse(EnrollmentToken.PREFIX + "Ag")).hasMessageContaining("unknown version");
        // taken exactly as bin/aio-agent enrollment prints it: nothing around it (issue 29: a trailing space was accepted)
        for (String padded : java.util.List.of(good + " ", " " + good, good + "\n", "\t" + good, good + "\r\n")) {
            assertThatThrownBy(() -> EnrollmentToken.parse(padded)).hasMessageContaining("spaces or line breaks around it");
        }
        assertThatThrownBy(() -> EnrollmentToken.parse(good + "\u00a0")).hasMessageContaining("base64url");
    }

    @Test
    void theAuthorizationHeaderMatchesOnlyTheSameSecret() {
        assertThat(AgentAuth.matches(AgentAuth.header(bytes(3)), bytes(3))).isTrue();
        assertThat(AgentAuth.matches(AgentAuth.header(bytes(3)), bytes(4))).isFalse();
        assertThat(AgentAuth.matches(null, bytes(3))).isFalse();
        assertThat(AgentAuth.matches("Bearer x", bytes(3))).isFalse();
        assertThat(AgentAuth.matches(AgentAuth.SCHEME + "%%%", bytes(3))).isFalse();
    }
}
