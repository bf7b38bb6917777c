package org.zstack.aio.server.api;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Reading ZStack-style bodies ({@code {"actionName":{...}}}) strictly: a wrong JSON type is a 400 that names
 * the field, never a silent coercion (a number where a string belongs is refused, not turned into text).
 */
public final class Bodies {

    private Bodies() {
    }

    /** The object under {@code name}, or 400. */
    public static JsonNode action(JsonNode body, String name) {
        JsonNode n = body == null ? null : body.get(name);
        if (n == null || !n.isObject()) {
            throw new ApiException(ErrorCode.MALFORMED_REQUEST, "the body must be a JSON object {\"" + name + "\":{...}}.",
                    "Wrap the parameters in \"" + name + "\" as the API reference shows.");
        }
        return n;
    }

    /** A string field, null when absent; 400 when present with another JSON type. */
    public static String optText(JsonNode obj, String field) {
        JsonNode n = obj.get(field);
        if (n == null || n.isMissingNode()) return null;
        if (!n.isTextual()) {
            throw ApiException.badRequest("field '" + field + "' must be a JSON string, not " + typeOf(n) + ".",
                    "Send \"" + field + "\" as a string, e.g. \"" + field + "\":\"...\".");
        }
        return n.textValue();
    }

    public static String text(JsonNode obj, String field) {
        String s = optText(obj, field);
        if (s == null || s.isEmpty()) {
            throw ApiException.badRequest("field '" + field + "' is required.", "Add \"" + field + "\" to the parameters.");
        }
        return s;
    }

    /** A whole number field (a JSON number, or a string of digits as ZStack's SDK sends sizes). */
    public static long number(JsonNode obj, String field, long min, long max) {
        JsonNode n = obj.get(field);
        long v;
        if (n != null && n.isIntegralNumber() && !n.canConvertToLong()) {
            // asLong() would wrap 2^64 + x to x: a huge number is out of range, never a small one
            throw ApiException.badRequest("field '" + field + "' is " + Uuids.abbreviate(n.asText()) + ", outside " + min
                                          + ".." + max + ".", "Send a value between " + min + " and " + max + ".");
        } else if (n != null && n.isIntegralNumber()) {
            v = n.asLong();
        } else if (n != null && n.isTextual() && n.textValue().matches("\\d{1,18}")) {
            v = Long.parseLong(n.textValue());
        } else {
            throw ApiException.badRequest("field '" + field + "' must be a whole number"
                                          + (n == null ? ", and it is missing." : ", not " + typeOf(n) + "."),
                    "Send \"" + field + "\" as a number between " + min + " and " + max + ".");
        }
        if (v < min || v > max) {
            throw ApiException.badRequest("field '" + field + "' is " + v + ", outside " + min + ".." + max + ".",
                    "Send a value between " + min + " and " + max + ".");
        }
        return v;
    }

    /** A resource name: the shared rule of {@link Inputs#name}. */
    public static String requireName(String name, String what) {
        return Inputs.name(name, what);
    }

    public static String typeOf(JsonNode n) {
        if (n.isNull()) return "null";
        if (n.isNumber()) return "a number";
        if (n.isBoolean()) return "a boolean";
        if (n.isArray()) return "an array";
        if (n.isObject()) return "an object";
        return "a string";
    }

    /** ZStack's {@code systemTags}: absent or null is none; anything but an array of strings is a 400. */
    public static List<String> systemTags(JsonNode obj, String example) {
        JsonNode tags = obj.get("systemTags");
        List<String> out = new ArrayList<>();
        if (tags == null || tags.isNull()) return out;
        if (!tags.isArray()) throw ApiException.badRequest("field 'systemTags' must be a JSON array of strings.", "Send e.g. [\"" + example + "\"].");
        for (JsonNode t : tags) {
            if (!t.isTextual()) throw ApiException.badRequest("'systemTags' holds a non-string.", "Send each tag as a string.");
            out.add(t.textValue());
        }
        return out;
    }
}
