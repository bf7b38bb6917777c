package org.zstack.sdk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One API call, ZStack SDK style: set the public {@link Param} fields, then {@link #call(ZSClient)}.
 *
 * <pre>{@code
 * UpdateResourceConfigAction a = new UpdateResourceConfigAction();
 * a.category = "kvm"; a.name = "vm.ioMode"; a.resourceUuid = volumeUuid; a.value = IoMode.NATIVE.wire();
 * a.sessionId = session;
 * ResourceConfigInventory inv = a.call(client).inventory;
 * }</pre>
 *
 * An action is a plain mutable holder of parameters, not thread-safe; use one per call (or per thread).
 *
 * @param <R> the typed result
 */
public abstract class AbstractAction<R> {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\w+)}");

    /**
     * The session uuid from {@link LogInByAccountAction}, sent as {@code Authorization: OAuth <sessionId>}.
     * When null, the session of the client ({@link ZSClient#withSession(String)}) is used.
     */
    public String sessionId;

    /** Method, path template and body wrapper of this call. */
    public abstract RestInfo getRestInfo();

    /** The class the answer is read into. */
    protected abstract Class<R> getResultClass();

    /** Sends this action with {@code client}; the typed result, or {@link ApiErrorException} / {@link ZSClientException}. */
    public R call(ZSClient client) {
        return client.call(this);
    }

    /** Reads a 2xx answer (an empty answer is read as {@code {}}); override when the answer is not a wrapper object. */
    protected R readResult(JsonNode answer, ObjectMapper mapper) throws IOException {
        return mapper.treeToValue(answer, getResultClass());
    }

    /** The HTTP request this action stands for, after checking required parameters. */
    final Request toRequest(ObjectMapper mapper) {
        RestInfo info = getRestInfo();
        Map<String, Object> params = params();
        Set<String> inPath = new LinkedHashSet<>();
        Matcher m = PLACEHOLDER.matcher(info.path());
        StringBuilder path = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            if (!params.containsKey(name)) {
                throw new IllegalStateException(getClass().getSimpleName() + " has no @Param field for {" + name + "}");
            }
            Object v = params.get(name);
            if (v == null || v.toString().isEmpty()) {
                throw new IllegalArgumentException(getClass().getSimpleName() + ": parameter '" + name + "' is required");
            }
            inPath.add(name);
            m.appendReplacement(path, Matcher.quoteReplacement(encodeSegment(v.toString())));
        }
        m.appendTail(path);

        String body = null;
        StringBuilder query = new StringBuilder();
        boolean hasBody = info.parameterName() != null
                          && (info.httpMethod().equals("POST") || info.httpMethod().equals("PUT"));
        ObjectNode wrapped = mapper.createObjectNode();
        for (Map.Entry<String, Object> e : params.entrySet()) {
            if (inPath.contains(e.getKey()) || e.getValue() == null) continue;
            if (hasBody) {
                wrapped.set(e.getKey(), mapper.valueToTree(e.getValue()));
            } else {
                Collection<?> values = e.getValue() instanceof Collection<?> c ? c : List.of(e.getValue());
                for (Object v : values) {
                    query.append(query.length() == 0 ? '?' : '&').append(encodeQuery(e.getKey())).append('=')
                            .append(encodeQuery(String.valueOf(v)));
                }
            }
        }
        if (hasBody) {
            ObjectNode root = mapper.createObjectNode();
            root.set(info.parameterName(), wrapped);
            body = root.toString();
        }
        return new Request(info.httpMethod(), path + query.toString(), body, info.needSession());
    }

    /** Every {@link Param} field by name, in declaration order (super classes first); required ones checked. */
    private Map<String, Object> params() {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> c = getClass(); c != null && c != AbstractAction.class; c = c.getSuperclass()) chain.add(0, c);
        Map<String, Object> out = new LinkedHashMap<>();
        for (Class<?> c : chain) {
            for (Field f : c.getDeclaredFields()) {
                Param p = f.getAnnotation(Param.class);
                if (p == null || Modifier.isStatic(f.getModifiers())) continue;
                Object v;
                try {
                    v = f.get(this);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("@Param field " + f + " must be public", e);
                }
                if (v == null && p.required()) {
                    throw new IllegalArgumentException(getClass().getSimpleName() + ": parameter '" + f.getName()
                                                       + "' is required");
                }
                out.put(f.getName(), v);
            }
        }
        return out;
    }

    private static String encodeSegment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static String encodeQuery(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** What goes on the wire: method, path with query (relative to the base URL), JSON body or null. */
    record Request(String method, String pathAndQuery, String body, boolean needSession) {
    }
}
