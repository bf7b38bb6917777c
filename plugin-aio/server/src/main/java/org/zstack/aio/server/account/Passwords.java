package org.zstack.aio.server.account;

import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * How passwords are stored and checked. ZStack's clients send a password as its SHA-512 in hex; plugin-aio's own
 * clients send it as typed. Both reach the same stored hash: BCrypt of the SHA-512 hex, so the database never holds
 * anything a client could replay. BCrypt reads at most 72 bytes, so it is given the Base64 SHA-256 of that hex
 * (44 bytes). Hashes from before this form (BCrypt of the plain password) still match, and the caller is told to
 * store the new form ({@link Match#LEGACY}).
 */
final class Passwords {

    private static final Pattern SHA512_HEX = Pattern.compile("[0-9a-fA-F]{128}");

    enum Match { NONE, CURRENT, LEGACY }

    private final BCryptPasswordEncoder bcrypt = new BCryptPasswordEncoder();

    String encode(String password) {
        return bcrypt.encode(bcryptInput(sha512Hex(password)));
    }

    /** {@code given} is the password as typed or its SHA-512 hex. */
    Match matches(String given, String storedHash) {
        if (given == null || storedHash == null) return Match.NONE;
        if (bcrypt.matches(bcryptInput(sha512Hex(given)), storedHash)) return Match.CURRENT;
        boolean hex = SHA512_HEX.matcher(given).matches();
        if (hex && bcrypt.matches(bcryptInput(given.toLowerCase(Locale.ROOT)), storedHash)) return Match.CURRENT;
        if (!hex && given.getBytes(StandardCharsets.UTF_8).length <= 72 && bcrypt.matches(given, storedHash)) {
            return Match.LEGACY;
        }
        return Match.NONE;
    }

    static String sha512Hex(String s) {
        return HexFormat.of().formatHex(digest("SHA-512", s));
    }

    private static String bcryptInput(String sha512Hex) {
        return Base64.getEncoder().encodeToString(digest("SHA-256", sha512Hex));
    }

    private static byte[] digest(String algorithm, String s) {
        try {
            return MessageDigest.getInstance(algorithm).digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every JRE", e);
        }
    }
}
