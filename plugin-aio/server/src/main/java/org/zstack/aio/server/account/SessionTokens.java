package org.zstack.aio.server.account;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SessionVO.uuid holds SHA-256(token) cut to the column's 32 hex digits (128 bits), never the token: someone who
 * reads the table cannot use what is in it. Tokens are random uuids, so no salt or slow hash is needed.
 */
final class SessionTokens {

    private SessionTokens() {
    }

    static String hash(String token) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
