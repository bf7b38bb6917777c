package org.zstack.aio.server.api;

import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ZStack's {@code X-JSON-Schema: true}: the answer gains {@code "schema": {"inventory": "<ZStack class>",
 * "inventories[0]": ...}} for each inventory whose type carries {@link ZStackInventory}. ZStack's SDK reads
 * {@code inventories} as untyped maps without it. Clients that do not ask get the answer unchanged.
 */
@RestControllerAdvice
public class JsonSchemaAdvice implements ResponseBodyAdvice<Object> {

    public static final String HEADER = "X-JSON-Schema";

    /** An inventory reduced to some fields ({@code fields=}) that still names the type it came from. */
    public static class TypedMap extends LinkedHashMap<String, Object> {
        private final transient Class<?> type;

        public TypedMap(Class<?> type) {
            this.type = type;
        }

        @Override
        public boolean equals(Object o) {
            return super.equals(o);
        }

        @Override
        public int hashCode() {
            return super.hashCode();
        }
    }

    @Override
    public boolean supports(MethodParameter returnType, Class converterType) {
        return true;
    }

    @Override
    public Object beforeBodyWrite(Object body, MethodParameter returnType, MediaType contentType, Class converterType,
                                  ServerHttpRequest request, ServerHttpResponse response) {
        if (body == null || !"true".equalsIgnoreCase(request.getHeaders().getFirst(HEADER))) return body;
        Map<?, ?> map = entries(body);
        if (map == null || map.containsKey("schema")) return body;
        Map<String, String> schema = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String key = String.valueOf(e.getKey());
            if (e.getValue() instanceof List<?> list) {
                for (int i = 0; i < list.size(); i++) {
                    String type = zstackType(list.get(i));
                    if (type != null) schema.put(key + "[" + i + "]", type);
                }
            } else {
                String type = zstackType(e.getValue());
                if (type != null) schema.put(key, type);
            }
        }
        if (schema.isEmpty()) return body;
        Map<Object, Object> out = new LinkedHashMap<>(map);
        out.put("schema", schema);
        return out;
    }

    /** The top-level fields of a reply: a map's entries, or a record's components (Reply.Inventory, VmActionReply, ...). */
    private static Map<?, ?> entries(Object body) {
        if (body instanceof Map<?, ?> m) return m;
        if (!body.getClass().isRecord()) return null;
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent c : body.getClass().getRecordComponents()) {
            try {
                Object v = c.getAccessor().invoke(body);
                if (v != null) out.put(c.getName(), v); // as the replies' NON_NULL inclusion leaves it out
            } catch (ReflectiveOperationException e) {
                return null;
            }
        }
        return out;
    }

    private static String zstackType(Object v) {
        if (v == null) return null;
        Class<?> c = v instanceof TypedMap t ? t.type : v.getClass();
        ZStackInventory z = c.getAnnotation(ZStackInventory.class);
        return z == null ? null : z.value();
    }
}
