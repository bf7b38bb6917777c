package org.zstack.aio.plugin;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The one form both platforms' APIs give a date: ISO-8601 in UTC, always with milliseconds, and a {@code Z}, e.g.
 * {@code 2026-11-26T04:31:11.000Z}. Fixed width on purpose: {@code ISO_INSTANT} drops a zero fraction, and
 * {@code …:11Z} then sorts after {@code …:11.123Z} as text (AuditApiH2Test's "newest first" failed on exactly that).
 */
public final class IsoDates {

    private static final DateTimeFormatter FORM =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private IsoDates() {
    }

    public static String format(long epochMillis) {
        return FORM.format(Instant.ofEpochMilli(epochMillis));
    }
}
