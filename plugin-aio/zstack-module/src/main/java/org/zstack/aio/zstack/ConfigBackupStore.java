package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.core.db.DatabaseFacade;

import java.util.List;

/**
 * The module's copy of the admin's config values, AioConfigBackupVO (V5.2.1.103), and the ZStack rows they are
 * compared with (GlobalConfigVO, ResourceConfigVO). Plain SQL on ZStack's data source, as {@link IoModeDecisionStore}.
 */
public final class ConfigBackupStore {

    static final String TABLE = "AioConfigBackupVO";
    /** the scope of a global value; a resource's override has the resource's uuid */
    static final String GLOBAL = "global";

    /** One value: the copy's, or ZStack's own row (row: GlobalConfigVO.id or ResourceConfigVO.uuid). */
    static final class Value {
        final String category;
        final String name;
        final String resourceUuid;
        final String resourceType;
        final String value;
        final String row;

        Value(String category, String name, String resourceUuid, String resourceType, String value, String row) {
            this.category = category;
            this.name = name;
            this.resourceUuid = resourceUuid;
            this.resourceType = resourceType;
            this.value = value;
            this.row = row;
        }

        String scope() {
            return resourceUuid == null ? GLOBAL : resourceUuid;
        }

        String describe() {
            return category + "/" + name + " = " + value + (resourceUuid == null ? " (global)"
                    : " on " + resourceType + "[uuid:" + resourceUuid + "]");
        }
    }

    private final JdbcTemplate jdbc;

    public ConfigBackupStore(DatabaseFacade dbf) {
        this.jdbc = new JdbcTemplate(dbf.getDataSource());
    }

    void save(Value v) {
        jdbc.update("INSERT INTO " + TABLE + " (category, name, scope, resourceUuid, resourceType, value, liveRowId,"
                + " createDate, lastOpDate) VALUES (?, ?, ?, ?, ?, ?, ?, NOW(), NOW()) ON DUPLICATE KEY UPDATE"
                + " value = VALUES(value), liveRowId = VALUES(liveRowId), resourceType = VALUES(resourceType),"
                + " lastOpDate = NOW()", v.category, v.name, v.scope(), v.resourceUuid, v.resourceType, v.value, v.row);
    }

    /** GlobalConfigVO's value, for a value ZStack already holds in memory (its updateValue would skip it). */
    void writeGlobalRow(Value v) {
        jdbc.update("UPDATE GlobalConfigVO SET value = ? WHERE category = ? AND name = ?", v.value, v.category, v.name);
    }

    void delete(String category, String name, String scope) {
        jdbc.update("DELETE FROM " + TABLE + " WHERE category = ? AND name = ? AND scope = ?", category, name, scope);
    }

    /**
     * Every copy, in the order they are restored: global values first, then the primary storages' before the
     * volumes', allowFalloc before ioMode (a volume's native is checked against its storage's allowFalloc).
     */
    List<Value> copies() {
        return jdbc.query("SELECT category, name, resourceUuid, resourceType, value, liveRowId FROM " + TABLE
                        + " ORDER BY resourceUuid IS NULL DESC, resourceType ASC, name DESC, scope ASC",
                (rs, n) -> new Value(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
                        rs.getString(5), rs.getString(6)));
    }

    /** ZStack's row of the same config now (GlobalConfigVO or ResourceConfigVO), or null when there is none. */
    Value live(String category, String name, String resourceUuid) {
        List<Value> rows = resourceUuid == null
                ? jdbc.query("SELECT value, CAST(id AS CHAR) FROM GlobalConfigVO WHERE category = ? AND name = ?",
                        (rs, n) -> new Value(category, name, null, null, rs.getString(1), rs.getString(2)), category, name)
                : jdbc.query("SELECT value, uuid, resourceType FROM ResourceConfigVO WHERE category = ? AND name = ?"
                                + " AND resourceUuid = ?",
                        (rs, n) -> new Value(category, name, resourceUuid, rs.getString(3), rs.getString(1), rs.getString(2)),
                        category, name, resourceUuid);
        return rows.isEmpty() ? null : rows.get(0);
    }

    boolean resourceExists(String resourceUuid) {
        return resourceUuid == null || jdbc.queryForObject("SELECT COUNT(*) FROM ResourceVO WHERE uuid = ?",
                Integer.class, resourceUuid) > 0;
    }

    /**
     * Copies every value of the module's configs ZStack holds and the module has no copy of yet (an installation older
     * than the copy, or values set while its table was missing); the same statements as V5.2.1.103. A global value at
     * its default is no admin's choice (a later ZStack may change the default): it is copied only when an admin sets
     * it. The number copied.
     */
    int copyUncopied() {
        String names = "'" + IoModeConfig.IO_MODE.name() + "', '" + IoModeConfig.ON_UNSATISFIED.name() + "', '"
                + IoModeConfig.ALLOW_FALLOC.name() + "'";
        int n = jdbc.update("INSERT IGNORE INTO " + TABLE + " (category, name, scope, resourceUuid, resourceType, value,"
                + " liveRowId, lastOpDate, createDate) SELECT g.category, g.name, '" + GLOBAL + "', NULL, NULL, g.value,"
                + " CAST(g.id AS CHAR), NOW(), NOW() FROM GlobalConfigVO g WHERE g.category = ? AND g.name IN (" + names
                + ") AND g.value IS NOT NULL AND g.value <> g.defaultValue", IoModeConfig.CATEGORY);
        n += jdbc.update("INSERT IGNORE INTO " + TABLE + " (category, name, scope, resourceUuid, resourceType, value,"
                + " liveRowId, lastOpDate, createDate) SELECT r.category, r.name, r.resourceUuid, r.resourceUuid,"
                + " r.resourceType, r.value, r.uuid, NOW(), NOW() FROM ResourceConfigVO r WHERE r.category = ? AND r.name IN ("
                + names + ") AND r.value IS NOT NULL AND EXISTS (SELECT 1 FROM ResourceVO rv WHERE rv.uuid = r.resourceUuid)",
                IoModeConfig.CATEGORY);
        return n;
    }
}
