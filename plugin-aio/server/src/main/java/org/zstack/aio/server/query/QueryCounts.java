package org.zstack.aio.server.query;

import jakarta.persistence.EntityManager;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.List;
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
    /** Counts and positions kept per entity and scope (one per account at most): past this they are all dropped. */
    static final int MAX_KEPT = 1024;

    private final EntityManager em;
    private final Map<String, Kept> kept = new ConcurrentHashMap<>();

    private record Kept(Object stamp, Object value, long atNanos) {
    }

    public QueryCounts(EntityManager em) {
        this.em = em;
    }

    /** The table's insert stamp now (read in the caller's transaction), or null when it has none. */
    public Object stamp(QuerySpec<?> spec) {
        if (spec.insertStamp() == null) return null;
        Object stamp = em.createNativeQuery(spec.insertStamp()).getSingleResult();
        return stamp == null ? "empty" : stamp;
    }

    /**
     * The count {@code counter} gives, or the one kept for {@code scopeKey} when no row was inserted since and it is
     * younger than {@link #MAX_AGE}. {@code scopeKey} null (a filtered count, or a scope without a key) or no
     * {@code stamp} (the table has none): always counted.
     */
    public long total(QuerySpec<?> spec, String scopeKey, Object stamp, Supplier<Long> counter) {
        if (stamp == null || scopeKey == null) return counter.get();
        return (Long) kept("count|" + spec.entity().getName() + "|" + scopeKey, stamp, counter::get);
    }

    /** Rows between two kept positions of a list in its default order. */
    static final int POSITION_STEP = 1000;

    /**
     * The sort key of the row at position {@code start} rounded down to a multiple of {@link #POSITION_STEP} (0-based,
     * in the default order of {@code spec} within {@code scopeKey}) and that position, or null when none is kept or
     * can be: a page at offset 99,950 then walks 950 index entries from there instead of 99,950 from the start. The
     * positions are read in one statement ({@code every}: the sort keys of rows 0, STEP, 2 STEP, ...) and kept like
     * the counts: while the stamp holds (an insert anywhere moves rows), at most {@link #MAX_AGE}.
     */
    @SuppressWarnings("unchecked")
    public Position position(QuerySpec<?> spec, String scopeKey, Object stamp, int start, Supplier<List<Object[]>> every) {
        if (stamp == null || scopeKey == null || start < POSITION_STEP) return null;
        List<Object[]> keys = (List<Object[]>) kept("positions|" + spec.entity().getName() + "|" + scopeKey, stamp,
                () -> List.copyOf(every.get()));
        int i = Math.min(start / POSITION_STEP, keys.size() - 1);
        return i <= 0 ? null : new Position(i * POSITION_STEP, keys.get(i));
    }

    /** Row number {@code index} of the list has the sort key {@code key}. */
    public record Position(int index, Object[] key) {
    }

    private Object kept(String key, Object stamp, Supplier<Object> compute) {
        long now = System.nanoTime();
        Kept k = kept.get(key);
        if (k != null && Objects.equals(k.stamp(), stamp) && now - k.atNanos() < MAX_AGE.toNanos()) return k.value();
        Object value = compute.get();
        if (kept.size() >= MAX_KEPT) kept.clear();
        kept.put(key, new Kept(stamp, value, now));
        return value;
    }
}
