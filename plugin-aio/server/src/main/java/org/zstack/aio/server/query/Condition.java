package org.zstack.aio.server.query;

import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Uuids;

import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One {@code q} condition, e.g. {@code primaryStorageUuid=X}, {@code size>1024}, {@code name~=db%}, {@code vmInstanceUuid=null}. */
public record Condition(String field, Op op, List<String> values) {

    static final Pattern FIELD = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");
    // the field is a name, so the operator is whatever follows it; longer operators first
    private static final Pattern FORM = Pattern.compile("([A-Za-z][A-Za-z0-9_.]*)(!\\?=|\\?=|!~=|~=|!=|>=|<=|=|>|<)(.*)", Pattern.DOTALL);

    public enum Op {
        EQ("="), NOT_EQ("!="), GT(">"), LT("<"), GE(">="), LE("<="), IN("?="), NOT_IN("!?="), LIKE("~="),
        NOT_LIKE("!~="), IS_NULL("=null"), NOT_NULL("!=null");

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        static Op of(String symbol) {
            return Arrays.stream(values()).filter(o -> o.symbol.equals(symbol)).findFirst().orElseThrow();
        }
    }

    public static Condition parse(String q) {
        Matcher m = FORM.matcher(q == null ? "" : q);
        if (!m.matches()) {
            throw ApiException.badRequest("query condition '" + Uuids.abbreviate(q) + "' is malformed.",
                    "Write a condition as field=value, field!=value, field>value, field<value, field>=value, field<=value, "
                    + "field?=a,b (in), field!?=a,b (not in), field~=pattern% (like), field=null or field!=null.");
        }
        String field = m.group(1);
        if (!FIELD.matcher(field).matches()) {
            throw ApiException.badRequest("query condition '" + Uuids.abbreviate(q) + "' names '" + Uuids.abbreviate(field)
                                          + "': nested fields are not supported.",
                    "Query the field of this resource itself, e.g. primaryStorageUuid=... instead of primaryStorage.uuid=....");
        }
        Op op = Op.of(m.group(2));
        String value = m.group(3);
        if (value.equals("null") && (op == Op.EQ || op == Op.NOT_EQ)) {
            return new Condition(field, op == Op.EQ ? Op.IS_NULL : Op.NOT_NULL, List.of());
        }
        List<String> values = op == Op.IN || op == Op.NOT_IN ? List.of(value.split(",", -1)) : List.of(value);
        return new Condition(field, op, values);
    }
}
