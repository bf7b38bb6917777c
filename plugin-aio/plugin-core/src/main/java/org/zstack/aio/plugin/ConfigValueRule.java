package org.zstack.aio.plugin;

import java.util.List;

/**
 * Whether a value is one of a config's valid values, exactly as declared: no trimming, no case folding, so what is
 * stored is what the decision reads. A value with spaces around an otherwise valid one is named as such.
 */
public final class ConfigValueRule {

    /** Longest part of a refused value echoed back: a megabyte of junk is not repeated to the caller. */
    static final int ECHO_LIMIT = 64;

    private ConfigValueRule() {
    }

    /** @return null when {@code value} is valid (or the config takes any value), else the refusal */
    public static ConfigRefusal refusal(String identity, List<String> validValues, String value) {
        if (validValues.isEmpty() || validValues.contains(value)) return null;
        String valid = join(validValues);
        if (value == null) {
            // a request that left the value out, not the word "null"
            return new ConfigRefusal("No value was given for " + identity + ".",
                    "Send one of the valid values (exact, lowercase, no spaces): " + valid + ".");
        }
        if (validValues.contains(value.trim())) {
            return new ConfigRefusal("'" + echo(value) + "' is not a valid value of " + identity
                                     + ": it has white space around it.",
                    "Send '" + value.trim() + "' without it; valid values are exact: " + valid + ".");
        }
        return new ConfigRefusal("'" + echo(value) + "' is not a valid value of " + identity + ".",
                "Valid values (exact, lowercase, no spaces): " + valid + ".");
    }

    /** {@link #refusal} for one of the feature's configs. */
    public static ConfigRefusal refusal(IoModeConfig config, String value) {
        return refusal(config.identity(), config.validValues(), value);
    }

    /** The value as it may be quoted in a sentence: at most {@link #ECHO_LIMIT} characters, control characters shown. */
    public static String echo(String value) {
        if (value == null) return "null";
        StringBuilder b = new StringBuilder();
        int n = Math.min(value.length(), ECHO_LIMIT);
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c)) b.append(String.format("\\u%04x", (int) c)); else b.append(c);
        }
        if (value.length() > ECHO_LIMIT) b.append("… (").append(value.length()).append(" characters)");
        return b.toString();
    }

    private static String join(List<String> values) {
        StringBuilder b = new StringBuilder();
        for (String v : values) {
            if (b.length() > 0) b.append(", ");
            b.append(v);
        }
        return b.toString();
    }
}
