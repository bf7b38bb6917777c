package org.zstack.aio.server.query;

import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.Uuids;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * ZStack's query parameters on a list endpoint: {@code q} (repeatable conditions), {@code limit}, {@code start},
 * {@code sort=+field|-field}, {@code count}, {@code replyWithCount}, {@code fields}. Parsed strictly: a malformed
 * number or flag is a 400 that names the parameter.
 */
public record QueryRequest(List<Condition> conditions, Integer limit, int start, Sort sort, boolean count,
                           boolean replyWithCount, List<String> fields) {

    public static final int MAX_LIMIT = 10_000;

    public record Sort(String field, boolean ascending) {
    }

    /** The parameters of ZStack's query API, which every list takes. */
    static final List<String> PARAMETERS = List.of("q", "limit", "start", "sort", "count", "replyWithCount", "fields");

    public static QueryRequest parse(Map<String, String[]> params) {
        return parse(params, Set.of());
    }

    /**
     * {@code named}: the parameters of this list besides the query API's (e.g. {@code volumeUuid}), which its handler
     * checks. Any other parameter is a 400 naming it: ignored, a misspelt {@code q} or a field sent as a parameter
     * would answer the whole list as if it had filtered.
     */
    public static QueryRequest parse(Map<String, String[]> params, Set<String> named) {
        for (String name : params.keySet()) {
            if (!PARAMETERS.contains(name) && !named.contains(name)) {
                List<String> known = new ArrayList<>(PARAMETERS);
                known.addAll(new java.util.TreeSet<>(named));
                throw ApiException.badRequest("query parameter '" + Uuids.abbreviate(name) + "' is not one this list takes.",
                        "Send only " + String.join(", ", known) + "; to filter on a field of the listed resources, send it"
                        + " as a condition, q=field=value (an unknown field is then refused with the list of fields).");
            }
        }
        List<Condition> conditions = new ArrayList<>();
        for (String q : params.getOrDefault("q", new String[0])) conditions.add(Condition.parse(q));
        Integer limit = integer(params, "limit", 0, MAX_LIMIT);
        Integer start = integer(params, "start", 0, Integer.MAX_VALUE);
        return new QueryRequest(List.copyOf(conditions), limit, start == null ? 0 : start, sort(one(params, "sort")),
                flag(params, "count"), flag(params, "replyWithCount"), fields(one(params, "fields")));
    }

    /** With a condition added (e.g. a list's own named parameter turned into {@code uuid?=a,b}). */
    public QueryRequest and(Condition c) {
        List<Condition> all = new ArrayList<>(conditions);
        all.add(c);
        return new QueryRequest(List.copyOf(all), limit, start, sort, count, replyWithCount, fields);
    }

    /** Whether this asks for the whole list as it is: no condition, page, order, count or projection. */
    public boolean whole() {
        return conditions.isEmpty() && limit == null && start == 0 && sort == null && !count && !replyWithCount
               && fields.isEmpty();
    }

    private static String one(Map<String, String[]> params, String name) {
        String[] v = params.get(name);
        if (v == null || v.length == 0) return null;
        if (v.length > 1) {
            throw ApiException.badRequest("query parameter '" + name + "' is given " + v.length + " times.",
                    "Give '" + name + "' once; only 'q' may repeat.");
        }
        return v[0];
    }

    private static Integer integer(Map<String, String[]> params, String name, int min, int max) {
        String s = one(params, name);
        if (s == null) return null;
        if (!s.matches("\\d{1,10}") || Long.parseLong(s) < min || Long.parseLong(s) > max) {
            throw ApiException.badRequest("query parameter '" + name + "' is '" + Uuids.abbreviate(s)
                                          + "', not a whole number in " + min + ".." + max + ".",
                    "Send e.g. " + name + "=" + (name.equals("limit") ? "100" : "0") + ".");
        }
        return Integer.parseInt(s);
    }

    private static boolean flag(Map<String, String[]> params, String name) {
        String s = one(params, name);
        if (s == null || s.equalsIgnoreCase("false")) return false;
        if (s.equalsIgnoreCase("true")) return true;
        throw ApiException.badRequest("query parameter '" + name + "' is '" + Uuids.abbreviate(s) + "', not true or false.",
                "Send " + name + "=true or leave it out.");
    }

    /** {@code +name}, {@code -name} or {@code name} (ascending); a '+' sent unencoded arrives as a space. */
    private static Sort sort(String s) {
        if (s == null) return null;
        String t = s.startsWith(" ") ? "+" + s.substring(1) : s;
        boolean asc = !t.startsWith("-");
        String field = t.startsWith("+") || t.startsWith("-") ? t.substring(1) : t;
        if (!Condition.FIELD.matcher(field).matches()) {
            throw ApiException.badRequest("query parameter 'sort' is '" + Uuids.abbreviate(s) + "', not +field or -field.",
                    "Send e.g. sort=-createDate (descending) or sort=%2Bname (ascending).");
        }
        return new Sort(field, asc);
    }

    private static List<String> fields(String s) {
        if (s == null || s.isBlank()) return List.of();
        List<String> out = Arrays.stream(s.split(",")).map(String::trim).filter(f -> !f.isEmpty()).toList();
        for (String f : out) {
            if (!Condition.FIELD.matcher(f).matches()) {
                throw ApiException.badRequest("query parameter 'fields' names '" + Uuids.abbreviate(f) + "', not a field name.",
                        "Send field names separated by commas, e.g. fields=uuid,name.");
            }
        }
        return out;
    }
}
