package org.zstack.aio.test.badinput;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiFunction;

/**
 * Generates bad requests for every operation the server's /v3/api-docs lists: each starts from a valid request for
 * the operation (a template below, or a generic one for an operation added later) and breaks exactly one thing in
 * it, as an attacker or a careless admin would: the path, the session, the method, the content type, the JSON, one
 * field's type or value, the size.
 */
final class BadRequests {

    /** An operation from the OpenAPI description. */
    record Operation(String id, String method, String path, List<String> pathParams, List<String> queryParams) {
    }

    /** A valid call of an operation: path values, query, body (null: none), and whether only an admin may make it. */
    record Template(Map<String, String> pathValues, String query, String body, boolean adminOnly) {
    }

    record Generated(String label, RawHttp.Request request) {
    }

    static final String UNKNOWN_UUID = "0123456789abcdef0123456789abcdef";

    /** Values for a path segment that no operation accepts as the resource it names. */
    static final List<String> BAD_SEGMENTS = List.of("%2F", "%00", "..%2F..%2Fetc", "%2e%2e", "x".repeat(300), "ZZZ",
            "0123456789ABCDEF0123456789ABCDEF", UNKNOWN_UUID, "%E2%80%AE" + "abc", "%C0%AF", "%25", "a%20b", "%0d%0aX-A:%20b",
            "%7B%7D", "null", "-1", "'%20OR%201=1--", "%F0%9F%92%A9", "0123456789abcdef0123456789abcde");

    /** Replacement values for one JSON field. */
    static final List<String> BAD_VALUES = List.of("1", "-1", "true", "null", "[]", "{}", "[\"a\"]", "1.5", "1e400",
            "18446744073709551680", "-9223372036854775809", "99999999999999999999999999", "\"\"", "\"   \"",
            "\"a\\u0000b\"", "\"evil\\u202Etxt.exe\"", "\"a\\u200Bb\"", "\"line\\nbreak\"", "\"" + "n".repeat(300) + "\"",
            "\"../../etc/passwd\"", "\"/tmp/../etc\"", "\"relative/path\"", "\"256.1.1.1\"", "\"127.0.0.1:7070\"",
            "\"\\ud800\"", "\"<script>alert(1)</script>x\\u0007\"", "\"NATIVE\"", "\"18446744073709551680\"");

    private static final List<String> BAD_JSON = List.of("", "{", "}", "null", "[]", "\"text\"", "42", "{\"a\":}",
            "{\"params\":{\"name\":\"x\",}}", "{'params':{}}", "\u0000\u0001\u0002", "{\"params\":[]}", "{\"params\":null}");

    private final Map<String, Template> templates;
    private final String adminSession;
    private final String tenantSession;

    BadRequests(Map<String, Template> templates, String adminSession, String tenantSession) {
        this.templates = templates;
        this.adminSession = adminSession;
        this.tenantSession = tenantSession;
    }

    static List<Operation> operations(JsonNode apiDocs) {
        List<Operation> out = new ArrayList<>();
        apiDocs.path("paths").fields().forEachRemaining(p -> p.getValue().fields().forEachRemaining(m -> {
            List<String> pathParams = new ArrayList<>();
            List<String> query = new ArrayList<>();
            for (JsonNode param : m.getValue().path("parameters")) {
                ("path".equals(param.path("in").asText()) ? pathParams : query).add(param.path("name").asText());
            }
            out.add(new Operation(m.getValue().path("operationId").asText(m.getKey() + " " + p.getKey()),
                    m.getKey().toUpperCase(), p.getKey(), pathParams, query));
        }));
        return out;
    }

    Template template(Operation op) {
        Template t = templates.get(op.id());
        if (t != null) return t;
        // an operation this battery does not know yet: fill its path from the names, send an empty action object
        Map<String, String> values = new LinkedHashMap<>();
        for (String p : op.pathParams()) values.put(p, p.toLowerCase().contains("uuid") ? UNKNOWN_UUID : "x");
        return new Template(values, "", "GET".equals(op.method()) || "DELETE".equals(op.method()) ? null : "{\"params\":{}}", true);
    }

    Generated generate(Operation op, Random rnd) {
        Template t = template(op);
        List<BiFunction<Template, Random, Generated>> kinds = new ArrayList<>();
        if (!op.pathParams().isEmpty()) kinds.add((tt, r) -> badPathSegment(op, tt, r));
        if (!"LogInByAccount".equals(op.id())) {
            kinds.add((tt, r) -> badSession(op, tt, r));
            if (t.adminOnly()) kinds.add((tt, r) -> tenantCall(op, tt));
        }
        kinds.add((tt, r) -> wrongMethod(op, tt, r));
        kinds.add((tt, r) -> hugeQuery(op, tt, r));
        if (t.body() != null) {
            kinds.add((tt, r) -> badJson(op, tt, r));
            kinds.add((tt, r) -> badField(op, tt, r));
            kinds.add((tt, r) -> badField(op, tt, r));
            kinds.add((tt, r) -> duplicateKey(op, tt, r));
            kinds.add((tt, r) -> wrongWrapper(op, tt));
            kinds.add((tt, r) -> wrongContentType(op, tt, r));
            kinds.add((tt, r) -> oversized(op, tt, r));
        }
        if (!op.queryParams().isEmpty()) kinds.add((tt, r) -> badQuery(op, tt, r));
        return kinds.get(rnd.nextInt(kinds.size())).apply(t, rnd);
    }

    // ---- the ways to break a request ----

    private Generated badPathSegment(Operation op, Template t, Random r) {
        Map<String, String> values = new LinkedHashMap<>(t.pathValues());
        String param = op.pathParams().get(r.nextInt(op.pathParams().size()));
        String bad = BAD_SEGMENTS.get(r.nextInt(BAD_SEGMENTS.size()));
        values.put(param, bad);
        return call(op.id() + " path " + param + "=" + bad, op.method(), fill(op.path(), values) + t.query(), session(t), t.body());
    }

    private Generated badSession(Operation op, Template t, Random r) {
        String[] headers = {null, "OAuth garbage", "OAuth " + UNKNOWN_UUID, "Basic YWRtaW46YWRtaW4=", "OAuth ",
                "OAuth " + adminSession.toUpperCase(), "OAuth " + adminSession + "x", "Bearer " + adminSession};
        String h = headers[r.nextInt(headers.length)];
        Map<String, String> hs = jsonHeaders(t.body());
        if (h != null) hs.put("Authorization", h);
        return new Generated(op.id() + " session " + h, new RawHttp.Request(op.method(), fill(op.path(), t.pathValues()) + t.query(),
                hs, bytes(t.body()), false));
    }

    private Generated tenantCall(Operation op, Template t) {
        return call(op.id() + " as a tenant", op.method(), fill(op.path(), t.pathValues()) + t.query(), tenantSession, t.body());
    }

    private Generated wrongMethod(Operation op, Template t, Random r) {
        String[] methods = {"PATCH", "TRACE", "OPTIONS", "FOO", "DELETE", "POST", "PUT"};
        String m = methods[r.nextInt(methods.length)];
        if (m.equals(op.method()) || ("DELETE".equals(m) && "GET".equals(op.method()) && op.path().contains("resource-configurations"))) {
            m = "PATCH";
        }
        // OPTIONS is answered (200, Allow) by design; the rest must be refused
        return call(op.id() + " method " + m, m, fill(op.path(), t.pathValues()) + t.query(), session(t), t.body());
    }

    private Generated hugeQuery(Operation op, Template t, Random r) {
        int size = 9_000 + r.nextInt(70_000);
        String target = fill(op.path(), t.pathValues()) + (t.query().isEmpty() ? "?" : t.query() + "&") + "q=" + "a".repeat(size);
        return call(op.id() + " query of " + size + " bytes", op.method(), target, session(t), t.body());
    }

    private Generated badQuery(Operation op, Template t, Random r) {
        StringBuilder q = new StringBuilder("?");
        for (String p : op.queryParams()) {
            String v = BAD_SEGMENTS.get(r.nextInt(BAD_SEGMENTS.size()));
            q.append(p).append('=').append(v).append('&');
        }
        return call(op.id() + " query " + q, op.method(), fill(op.path(), t.pathValues()) + q, session(t), t.body());
    }

    private Generated badJson(Operation op, Template t, Random r) {
        String body = BAD_JSON.get(r.nextInt(BAD_JSON.size()));
        return call(op.id() + " body " + body, op.method(), target(op, t), session(t), body);
    }

    private Generated badField(Operation op, Template t, Random r) {
        ObjectNode root = (ObjectNode) read(t.body());
        String wrapper = root.fieldNames().next();
        ObjectNode action = (ObjectNode) root.get(wrapper);
        List<String> fields = new ArrayList<>();
        action.fieldNames().forEachRemaining(fields::add);
        if (fields.isEmpty()) return wrongWrapper(op, t);
        String field = fields.get(r.nextInt(fields.size()));
        String value = BAD_VALUES.get(r.nextInt(BAD_VALUES.size()));
        if (optionalWithDefault(field) && value.equals("null")) value = "\"\\u0000\"";
        String body = t.body().replace("\"" + field + "\":" + action.get(field).toString(), "\"" + field + "\":" + value);
        return call(op.id() + " field " + field + "=" + RawHttp.abbreviate(value), op.method(), target(op, t), session(t), body);
    }

    /** Fields a valid call may leave out (null: the default), so null there is no mistake. */
    private static boolean optionalWithDefault(String field) {
        return field.equals("seconds") || field.equals("preallocation") || field.equals("agentPort")
               || field.equals("primaryStorageUuids");
    }

    private Generated duplicateKey(Operation op, Template t, Random r) {
        ObjectNode root = (ObjectNode) read(t.body());
        String wrapper = root.fieldNames().next();
        ObjectNode action = (ObjectNode) root.get(wrapper);
        String body;
        if (action.isEmpty() || r.nextBoolean()) {
            body = "{\"" + wrapper + "\":" + action + ",\"" + wrapper + "\":" + action + "}";
        } else {
            var f = action.fields().next();
            String pair = "\"" + f.getKey() + "\":" + f.getValue();
            body = t.body().replace(pair, pair + "," + pair);
        }
        return call(op.id() + " duplicate key", op.method(), target(op, t), session(t), body);
    }

    private Generated wrongWrapper(Operation op, Template t) {
        ObjectNode root = (ObjectNode) read(t.body());
        String wrapper = root.fieldNames().next();
        String body = "{\"" + wrapper + "X\":" + root.get(wrapper) + "}";
        return call(op.id() + " wrapper " + wrapper + "X", op.method(), target(op, t), session(t), body);
    }

    private Generated wrongContentType(Operation op, Template t, Random r) {
        String[] types = {"text/plain", "application/xml", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"};
        Map<String, String> hs = new LinkedHashMap<>();
        hs.put("Content-Type", types[r.nextInt(types.length)]);
        hs.put("Authorization", "OAuth " + session(t));
        return new Generated(op.id() + " content type " + hs.get("Content-Type"),
                new RawHttp.Request(op.method(), target(op, t), hs, bytes(t.body()), false));
    }

    private Generated oversized(Operation op, Template t, Random r) {
        int size = 70_000 + r.nextInt(200_000);
        ObjectNode root = (ObjectNode) read(t.body());
        String wrapper = root.fieldNames().next();
        String body = "{\"" + wrapper + "\":" + root.get(wrapper).toString().replaceFirst("^\\{", "{\"pad\":\"" + "p".repeat(size) + "\",")
                .replace(",}", "}") + "}";
        Map<String, String> hs = jsonHeaders(body);
        hs.put("Authorization", "OAuth " + session(t));
        boolean chunked = r.nextBoolean();
        return new Generated(op.id() + " body of " + size + " bytes" + (chunked ? ", chunked" : ""),
                new RawHttp.Request(op.method(), target(op, t), hs, bytes(body), chunked));
    }

    // ---- helpers ----

    private String session(Template t) {
        return adminSession;
    }

    private static String target(Operation op, Template t) {
        return fill(op.path(), t.pathValues()) + t.query();
    }

    private Generated call(String label, String method, String target, String session, String body) {
        Map<String, String> hs = jsonHeaders(body);
        if (session != null) hs.put("Authorization", "OAuth " + session);
        return new Generated(label, new RawHttp.Request(method, target, hs, bytes(body), false));
    }

    private static Map<String, String> jsonHeaders(String body) {
        Map<String, String> hs = new LinkedHashMap<>();
        if (body != null) hs.put("Content-Type", "application/json");
        return hs;
    }

    static String fill(String path, Map<String, String> values) {
        String out = path;
        for (var e : values.entrySet()) out = out.replace("{" + e.getKey() + "}", e.getValue());
        return out;
    }

    private static byte[] bytes(String body) {
        return body == null ? null : body.getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode read(String json) {
        try {
            return RawHttp.JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(json, e);
        }
    }
}
