package org.zstack.aio.server.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.JsonSchemaAdvice;
import org.zstack.aio.server.api.Uuids;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** {@code fields=a,b}: each inventory reduced to the named fields, which must be fields of the inventory. */
final class Projection {

    private Projection() {
    }

    static Set<String> fieldsOf(Class<?> inventory) {
        RecordComponent[] rc = inventory.getRecordComponents();
        if (rc == null) throw new IllegalStateException(inventory + " is not a record");
        return Arrays.stream(rc).map(RecordComponent::getName).collect(Collectors.toCollection(java.util.TreeSet::new));
    }

    static void check(QuerySpec<?> spec, List<String> fields) {
        if (fields.isEmpty()) return;
        Set<String> known = fieldsOf(spec.inventory());
        for (String f : fields) {
            if (!known.contains(f)) {
                throw ApiException.badRequest("'" + Uuids.abbreviate(f) + "' in 'fields' is not a field of "
                                              + spec.inventory().getSimpleName() + ".",
                        "Fields: " + String.join(", ", known) + ".");
            }
        }
    }

    @SuppressWarnings("unchecked")
    static List<Object> apply(List<?> inventories, List<String> fields, ObjectMapper json) {
        if (fields.isEmpty()) return List.copyOf(inventories);
        return inventories.stream().map(inv -> {
            Map<String, Object> all = json.convertValue(inv, Map.class);
            Map<String, Object> picked = new JsonSchemaAdvice.TypedMap(inv.getClass());
            for (String f : fields) picked.put(f, all.get(f));
            return (Object) picked;
        }).toList();
    }
}
