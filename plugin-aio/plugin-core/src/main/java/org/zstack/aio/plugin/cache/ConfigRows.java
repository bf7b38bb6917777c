package org.zstack.aio.plugin.cache;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * What a platform stores of some resources' configs, as {@link IoFactsCache} keeps it: each primary storage's type,
 * and each resource's config rows (a volume's or a storage's own values, by category and name). A resource with no
 * rows is answered with none, which is a fact too: nothing set on it. Immutable.
 */
public final class ConfigRows {

    private final Map<String, String> storageTypes;
    /** owner uuid -> "category/name" -> value */
    private final Map<String, Map<String, String>> rows;

    /**
     * @param storageTypes storage uuid -> its type (a storage the store did not find is absent)
     * @param rows         resource uuid -> "category/name" -> value (a resource with no rows may be absent)
     */
    public ConfigRows(Map<String, String> storageTypes, Map<String, Map<String, String>> rows) {
        this.storageTypes = Collections.unmodifiableMap(new HashMap<String, String>(storageTypes));
        Map<String, Map<String, String>> copy = new HashMap<String, Map<String, String>>();
        for (Map.Entry<String, Map<String, String>> e : rows.entrySet()) {
            copy.put(e.getKey(), Collections.unmodifiableMap(new HashMap<String, String>(e.getValue())));
        }
        this.rows = Collections.unmodifiableMap(copy);
    }

    /** The storage's type, or null when it is unknown. */
    public String storageType(String storageUuid) {
        return storageUuid == null ? null : storageTypes.get(storageUuid);
    }

    /** The value of {@code category/name} set on the resource, or null when none is. */
    public String row(String resourceUuid, String category, String name) {
        Map<String, String> m = resourceUuid == null ? null : rows.get(resourceUuid);
        return m == null ? null : m.get(category + "/" + name);
    }

    /** The resource's own rows ("category/name" -> value), empty when none. */
    Map<String, String> rowsOf(String resourceUuid) {
        Map<String, String> m = rows.get(resourceUuid);
        return m == null ? Collections.<String, String>emptyMap() : m;
    }
}
