package org.zstack.aio.plugin.cache;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One kind of {@link IoFactsCache}'s entries, by key, least recently used first out past {@code max}. A value is
 * kept by a load only if no change was heard since the load began: each change moves the kind's epoch, and
 * {@link #putIfStill} compares it with the epoch the load read before asking the store.
 */
final class KeptEntries<V> {
    private final Object lock = new Object();
    private final Map<String, V> values;
    private long epoch;

    KeptEntries(final int max) {
        this.values = new LinkedHashMap<String, V>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) { return size() > max; }
        };
    }

    /** A lookup: found with its value (which may be null, a fact too), or not found. */
    static final class Hit<V> {
        final boolean found;
        final V value;

        Hit(boolean found, V value) {
            this.found = found;
            this.value = value;
        }
    }

    Hit<V> get(String key) {
        synchronized (lock) {
            boolean found = values.containsKey(key);
            return new Hit<V>(found, found ? values.get(key) : null);
        }
    }

    long epoch() {
        synchronized (lock) {
            return epoch;
        }
    }

    void putIfStill(long startedAt, String key, V value) {
        synchronized (lock) {
            if (epoch == startedAt) values.put(key, value);
        }
    }

    void drop(Collection<String> keys) {
        synchronized (lock) {
            epoch++;
            for (String k : keys) values.remove(k);
        }
    }

    void dropAll() {
        synchronized (lock) {
            epoch++;
            values.clear();
        }
    }
}
