package org.zstack.aio.agent.api.trust;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * What a management server needs to trust one agent and be trusted by it, as one line an operator copies from
 * the agent's host ({@code <AIO_DATA_DIR>/agent-enrollment}) into {@code POST /v1/hosts/kvm}:
 * {@code aio1.<base64url(version | SHA-256 of the agent's certificate | 32-byte secret | expiry)>}.
 * <p>The fingerprint pins the agent's self-signed certificate (the server talks to nothing else on that port);
 * the secret is what the server presents on every call ({@link AgentAuth}). The expiry (epoch seconds, 0 = none)
 * limits when the token may be used to enroll; it does not revoke the secret: rotating does
 * ({@code bin/aio-agent enrollment --rotate}).
 */
public record EnrollmentToken(byte[] certSha256, byte[] secret, Instant expiresAt) {

    public static final String PREFIX = "aio1.";
    private static final byte VERSION = 1;
    private static final int HASH = 32;
    private static final int SECRET = 32;
    private static final int LENGTH = 1 + HASH + SECRET + Long.BYTES;

    public EnrollmentToken {
        if (certSha256 == null || certSha256.length != HASH) {
            throw new IllegalArgumentException("a certificate fingerprint is 32 bytes (SHA-256)");
        }
        if (secret == null || secret.length != SECRET) {
            throw new IllegalArgumentException("an agent secret is 32 bytes");
        }
        certSha256 = certSha256.clone();
        secret = secret.clone();
    }

    @Override
    public byte[] certSha256() {
        return certSha256.clone();
    }

    @Override
    public byte[] secret() {
        return secret.clone();
    }

    public String certSha256Hex() {
        return HexFormat.of().formatHex(certSha256);
    }

    public boolean expired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    public String encode() {
        ByteBuffer b = ByteBuffer.allocate(LENGTH).put(VERSION).put(certSha256).put(secret)
                .putLong(expiresAt == null ? 0 : expiresAt.getEpochSecond());
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }

    /**
     * @throws IllegalArgumentException with a sentence a person can act on when the text is not exactly a whole token
     *                                  of a version this code reads (nothing around it, not even a space)
     */
    public static EnrollmentToken parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("no agent enrollment token was given");
        }
        // taken exactly as printed: a token is a credential, and one that only matches after editing is not that token
        if (!text.equals(text.strip())) {
            throw new IllegalArgumentException("the agent enrollment token has spaces or line breaks around it");
        }
        String t = text;
        if (!t.startsWith(PREFIX)) {
            throw new IllegalArgumentException("the agent enrollment token does not start with '" + PREFIX + "'");
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(t.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the agent enrollment token is not base64url text (copied with extra "
                    + "characters?)");
        }
        if (raw.length < 1 || raw[0] != VERSION) {
            throw new IllegalArgumentException("the agent enrollment token has an unknown version");
        }
        if (raw.length != LENGTH) {
            throw new IllegalArgumentException("the agent enrollment token is " + (raw.length < LENGTH
                    ? "truncated" : "too long") + " (" + raw.length + " of " + LENGTH + " bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(raw, 1, LENGTH - 1);
        byte[] hash = new byte[HASH];
        byte[] secret = new byte[SECRET];
        b.get(hash).get(secret);
        long exp = b.getLong();
        EnrollmentToken token = new EnrollmentToken(hash, secret, exp == 0 ? null : Instant.ofEpochSecond(exp));
        Arrays.fill(secret, (byte) 0);
        return token;
    }

    /** Never prints the secret (records print every component otherwise). */
    @Override
    public String toString() {
        return "EnrollmentToken[cert sha256 " + certSha256Hex() + (expiresAt == null ? "" : ", expires " + expiresAt) + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EnrollmentToken other && Arrays.equals(certSha256, other.certSha256)
                && Arrays.equals(secret, other.secret) && java.util.Objects.equals(expiresAt, other.expiresAt);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(certSha256);
    }
}
