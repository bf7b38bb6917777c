package org.zstack.aio.server.query;

import java.util.List;
import java.util.Set;

/**
 * What one list endpoint queries: its entity (every persistent attribute of it can be filtered and sorted on, by
 * its ZStack name, except {@code hidden} ones), the inventory it answers with (whose fields {@code fields=} may
 * pick), and the order used when the caller gives none (ending in a unique attribute, so paging is stable).
 */
public record QuerySpec<E>(Class<E> entity, Class<?> inventory, Set<String> hidden, List<QueryRequest.Sort> defaultOrder,
                           String insertStamp) {

    public QuerySpec(Class<E> entity, Class<?> inventory, Set<String> hidden, List<QueryRequest.Sort> defaultOrder) {
        this(entity, inventory, hidden, defaultOrder, null);
    }

    public static <E> QuerySpec<E> of(Class<E> entity, Class<?> inventory, String... defaultOrder) {
        return new QuerySpec<>(entity, inventory, Set.of(),
                java.util.Arrays.stream(defaultOrder).map(f -> new QueryRequest.Sort(f, true)).toList());
    }

    public QuerySpec<E> hiding(String... attributes) {
        return new QuerySpec<>(entity, inventory, Set.of(attributes), defaultOrder, insertStamp);
    }

    /**
     * {@code sql}: one value that changes whenever a row is inserted, read from an index (e.g. MAX of a column the
     * database numbers on insert), for a table whose rows are never deleted: its unfiltered counts may then be kept
     * ({@link QueryCounts}).
     */
    public QuerySpec<E> withInsertStamp(String sql) {
        return new QuerySpec<>(entity, inventory, hidden, defaultOrder, sql);
    }
}
