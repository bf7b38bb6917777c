package org.zstack.aio.server.config;

import jakarta.persistence.EntityManager;
import org.springframework.stereotype.Component;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads a {@link ConfigSnapshot}: the global rows and the overrides of the given resources, in ONE query. */
@Component
public class ConfigSnapshotLoader {

    private static final String SQL = """
            SELECT r.resourceUuid, r.name, r.value FROM ResourceConfigVO r
             WHERE r.category = :category AND r.resourceUuid IN (:uuids)
            UNION ALL
            SELECT CAST(NULL AS VARCHAR(32)), g.name, g.value FROM GlobalConfigVO g WHERE g.category = :category
            """;

    private final EntityManager em;

    public ConfigSnapshotLoader(EntityManager em) {
        this.em = em;
    }

    private static final String ALL_SQL = """
            SELECT r.resourceUuid, r.name, r.value FROM ResourceConfigVO r WHERE r.category = :category
            UNION ALL
            SELECT CAST(NULL AS VARCHAR(32)), g.name, g.value FROM GlobalConfigVO g WHERE g.category = :category
            """;

    /** Every override and global of the category, in one query (for views over all volumes). */
    public ConfigSnapshot loadAll(String category) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery(ALL_SQL).setParameter("category", category).getResultList();
        return snapshot(rows);
    }

    public ConfigSnapshot load(String category, Collection<String> resourceUuids) {
        // IN () is invalid SQL; a uuid that cannot exist keeps the statement shape (and the round trip count) fixed
        Collection<String> uuids = resourceUuids.isEmpty() ? List.of("-") : resourceUuids;
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery(SQL)
                .setParameter("category", category).setParameter("uuids", uuids).getResultList();
        return snapshot(rows);
    }

    private static ConfigSnapshot snapshot(List<Object[]> rows) {
        Map<String, String> globals = new HashMap<>();
        Map<String, Map<String, String>> overrides = new HashMap<>();
        for (Object[] r : rows) {
            if (r[0] == null) globals.put((String) r[1], (String) r[2]);
            else overrides.computeIfAbsent((String) r[0], k -> new HashMap<>()).put((String) r[1], (String) r[2]);
        }
        return new ConfigSnapshot(globals, overrides);
    }
}
