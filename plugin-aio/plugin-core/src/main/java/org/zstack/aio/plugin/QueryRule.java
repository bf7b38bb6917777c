package org.zstack.aio.plugin;

import java.util.Collection;

/**
 * Why a query over the stored decisions is refused, in the words both platforms answer with (the standalone server's
 * query says the same of its fields and numbers). Values are quoted as {@link ConfigValueRule#echo} quotes them.
 */
public final class QueryRule {

    private QueryRule() {
    }

    /** @param where "condition", "sortBy", "groupBy" or "fields" */
    public static ConfigRefusal unknownField(String field, String where, String entity, Collection<String> fields) {
        return new ConfigRefusal("'" + ConfigValueRule.echo(field) + "' in the " + where + " is not a queryable field of "
                                 + entity + ".", "Queryable fields: " + String.join(", ", fields) + ".");
    }

    /** limit or start below 0. */
    public static ConfigRefusal negative(String parameter, int value) {
        return new ConfigRefusal("query parameter '" + parameter + "' is " + value + ", not a whole number from 0.",
                "Send e.g. " + parameter + "=" + ("limit".equals(parameter) ? "100" : "0") + ".");
    }

    /**
     * A condition value holding ' or \: ZStack's query language (ZQL) escapes them with a backslash its own grammar
     * does not read, so such a value can never match.
     */
    public static ConfigRefusal unmatchableValue(String field, String value) {
        return new ConfigRefusal("the value '" + ConfigValueRule.echo(value) + "' of the condition on '"
                                 + ConfigValueRule.echo(field) + "' holds a ' or a \\, which ZStack's query language cannot match.",
                "Leave the character out: match the text around it with ~= and %.");
    }
}
