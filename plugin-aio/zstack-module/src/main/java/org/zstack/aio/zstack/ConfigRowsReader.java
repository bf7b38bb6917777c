package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.cache.ConfigRows;
import org.zstack.core.config.GlobalConfig;
import org.zstack.core.db.DatabaseFacade;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The config rows the decision reads (every io-mode override and each file storage's qcow2.allocation) of some volumes
 * and storages, with the storages' types, in ONE statement (a UNION ALL of the two reads). Asked by the node's
 * {@link org.zstack.aio.plugin.cache.IoFactsCache} for what it does not keep.
 */
public final class ConfigRowsReader {

    private final DatabaseFacade dbf;

    public ConfigRowsReader(DatabaseFacade dbf) {
        this.dbf = dbf;
    }

    ConfigRows read(Collection<String> owners, Collection<String> storages) {
        Map<String, String> types = new HashMap<>();
        Map<String, Map<String, String>> byOwner = new HashMap<>();
        if (owners.isEmpty() && storages.isEmpty()) return new ConfigRows(types, byOwner);
        Set<String> categories = new LinkedHashSet<>();
        Set<String> names = new LinkedHashSet<>();
        for (IoModeConfig c : IoModeConfig.ALL) {
            categories.add(c.category());
            names.add(c.name());
        }
        for (GlobalConfig c : Qcow2Allocation.all()) {
            categories.add(c.getCategory());
            names.add(c.getName());
        }
        List<Object> args = new ArrayList<>();
        // either half may have nothing to ask: it then matches nothing
        args.addAll(storages.isEmpty() ? Collections.singletonList("") : storages);
        args.addAll(categories);
        args.addAll(names);
        args.addAll(owners.isEmpty() ? Collections.singletonList("") : owners);
        String sql = "SELECT 'type', uuid, NULL, type FROM PrimaryStorageVO WHERE uuid IN ("
                + InList.marks(Math.max(1, storages.size())) + ")"
                + " UNION ALL SELECT 'row', resourceUuid, CONCAT(category, '/', name), value FROM ResourceConfigVO"
                + " WHERE category IN (" + InList.marks(categories.size()) + ") AND name IN (" + InList.marks(names.size()) + ")"
                + " AND resourceUuid IN (" + InList.marks(Math.max(1, owners.size())) + ")";
        // the facade's data source as it is now, as IoModeDecisionStore says why
        new JdbcTemplate(dbf.getDataSource()).query(sql, rs -> {
            if ("type".equals(rs.getString(1))) {
                types.put(rs.getString(2), rs.getString(4));
            } else {
                byOwner.computeIfAbsent(rs.getString(2), k -> new HashMap<>()).put(rs.getString(3), rs.getString(4));
            }
        }, args.toArray());
        return new ConfigRows(types, byOwner);
    }
}
