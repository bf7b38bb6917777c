package org.zstack.aio.agent.api.trust;

import java.security.MessageDigest;
import java.util.Base64;

/**
 * How a server authenticates itself to an agent: {@code Authorization: AioAgent <base64url(secret)>} on every
 * request, sent only inside a TLS session whose agent certificate matched the pinned fingerprint
 * ({@link PinnedTls}), so nobody but that agent ever sees it.
 */
public final class AgentAuth {

    public static final String HEADER = "Authorization";
    public static final String SCHEME = "AioAgent ";

    private AgentAuth() {
    }

    public static String header(byte[] secret) {
        return SCHEME + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    /** Constant-time comparison of a received header with the expected secret. */
    public static boolean matches(String header, byte[] secret) {
        if (header == null || !header.startsWith(SCHEME) || secret == null) {
            return false;
        }
        byte[] got;
        try {
            got = Base64.getUrlDecoder().decode(header.substring(SCHEME.length()).strip());
        } catch (IllegalArgumentException e) {
            return false;
        }
        return MessageDigest.isEqual(got, secret);
    }
}
