package org.zstack.aio.server.api;

import java.util.UUID;
import java.util.regex.Pattern;

/** ZStack uuids: 32 lowercase hex digits, no dashes. */
public final class Uuids {

    private static final Pattern FORM = Pattern.compile("[0-9a-f]{32}");

    private Uuids() {
    }

    public static String random() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /** Refuses a malformed uuid with 400 before any lookup. */
    public static String require(String uuid, String what) {
        if (uuid == null || !FORM.matcher(uuid).matches()) {
            throw new ApiException(ErrorCode.MALFORMED_UUID,
                    "'" + abbreviate(uuid) + "' is not a valid " + what + " uuid.",
                    "A uuid is 32 lowercase hexadecimal characters without dashes.");
        }
        return uuid;
    }

    public static String abbreviate(String s) {
        if (s == null) return "null";
        return s.length() > 64 ? s.substring(0, 64) + "..." : s;
    }
}
