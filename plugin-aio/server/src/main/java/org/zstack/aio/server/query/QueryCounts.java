package org.zstack.aio.server.query;

import jakarta.persistence.EntityManager;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Keeps the unfiltered row counts of tables that say how to notice an insert ({@link QuerySpec#insertStamp()}), so
 * {@code replyWithCount} on every page of 100k volumes does not count them all each time (20-60 ms on this machine,
 * docs/performance.md §6). The database stays the truth: each call reads the stamp (one index lookup, in the same
 * transaction and snapshot as the count would be) and counts again when it moved, whichever management node or
 * SQL inserted. Two things the stamp cannot see are bounded by {@link #MAX_AGE}: a row deleted outside the server
 * (the server deletes none of these) and an insert that committed after a later-numbered one was already counted.
 */
@Component
public class QueryCounts {

    static final Duration MAX_AGE = Duration.ofSeconds(5);
    /** Counts kept per entity and scope (one per account at most): past this they are all dropped. */
    static final int MAX_KEPT = 1024;

    private final EntityManager em;
    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    private record Kept(Object stamp, long total, long atNanos) {
    }

    public QueryCounts(EntityManager em) {
        this.em = em;
    }

    /**
     * The count {@code counter} gives, or the one kept for {@code scopeKey} when no row was inserted since and it is
     * younger than {@link #MAX_AGE}. {@code scopeKey} null (a filtered count, or a scope without a key) or a table
     * without a stamp: always counted.
     */
    public long total(QuerySpec<?> spec, String scopeKey, Supplier<Long> counter) {
        if (spec.insertStamp() == null || scopeKey == null) return counter.get();
        Object stamp = em.createNativeQuery(spec.insertStamp()).getSingleResult();
        String key = spec.entity().getName() + "|" + scopeKey;
        long now = System.nanoTime();
        Kept k = kept.get(key);
        if (k != null && Objects.equals(k.stamp(), stamp) && now - k.atNanos() < MAX_AGE.toNanos()) return k.total();
        long total = counter.get();
        if (kept.size() >= MAX_KEPT) kept.clear();
        kept.put(key, new Kept(stamp, total, now));
        return total;
    }
}
