package org.zstack.aio.server.iomode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * SHA-256 of a stored decision's content, base64: equal digests mean the same decision, so a start that decides the
 * same again needs neither to load the stored row nor to write it. The content is fed value by value (no JSON is
 * written for it: that was most of what a start allocated for its digests), each value tagged and strings and lists
 * length-prefixed, so no two different sequences of values give the same input (null apart from empty, "ab","c"
 * apart from "a","bc", a list's end apart from the next value).
 */
final class DecisionDigest {

    private static final byte NULL = 0;
    private static final byte STRING = 1;
    private static final byte NUMBER = 2;
    private static final byte LIST = 3;
    private static final byte TRUE = 4;
    private static final byte FALSE = 5;

    private final MessageDigest sha;
    private final byte[] prefix = new byte[9];

    DecisionDigest() {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** The digest of these strings, in this order. */
    static String of(String... values) {
        DecisionDigest d = new DecisionDigest();
        for (String v : values) d.add(v);
        return d.digest();
    }

    DecisionDigest add(String value) {
        if (value == null) {
            sha.update(NULL);
            return this;
        }
        byte[] b = value.getBytes(StandardCharsets.UTF_8);
        tagged(STRING, b.length);
        sha.update(b);
        return this;
    }

    DecisionDigest add(boolean value) {
        sha.update(value ? TRUE : FALSE);
        return this;
    }

    /** A number, by its exact bits (no text: 0.1 and 0.10000000000000001 are the same double). */
    DecisionDigest add(double value) {
        tagged(NUMBER, Double.doubleToLongBits(value));
        return this;
    }

    /** Starts a list of {@code size} elements; the caller adds each element's values next. */
    DecisionDigest list(int size) {
        tagged(LIST, size);
        return this;
    }

    /** A list that is absent, apart from an empty one. */
    DecisionDigest absent() {
        sha.update(NULL);
        return this;
    }

    private void tagged(byte tag, long value) {
        prefix[0] = tag;
        for (int i = 0; i < 8; i++) prefix[1 + i] = (byte) (value >>> (56 - 8 * i));
        sha.update(prefix, 0, 9);
    }

    /** The digest of what was added; this object is spent afterwards. */
    String digest() {
        return Base64.getEncoder().encodeToString(sha.digest());
    }
}
