package org.zstack.aio.server.iomode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * SHA-256 of a stored decision's fields, base64: equal digests mean the same decision, so a start that decides the
 * same again needs neither to load the stored row nor to write it. Each field is length-prefixed (null apart from
 * empty), so no two different field lists give the same input.
 */
final class DecisionDigest {

    private DecisionDigest() {
    }

    static String of(String... fields) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
        for (String f : fields) {
            if (f == null) {
                sha.update((byte) 0);
                continue;
            }
            byte[] b = f.getBytes(StandardCharsets.UTF_8);
            sha.update((byte) 1);
            sha.update(new byte[]{(byte) (b.length >>> 24), (byte) (b.length >>> 16), (byte) (b.length >>> 8), (byte) b.length});
            sha.update(b);
        }
        return Base64.getEncoder().encodeToString(sha.digest());
    }
}
