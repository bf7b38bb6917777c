package org.zstack.aio.zstack;

import org.springframework.jdbc.core.JdbcTemplate;
import org.zstack.aio.plugin.bench.StorageBenchmark;
import org.zstack.core.db.DatabaseFacade;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The stored io-mode benchmarks, one row per host x primary storage x image kind in AioStorageBenchmarkVO
 * (V5.2.1.112): a benchmark replaces the one before it of the same key. Plain SQL on ZStack's data source, as the
 * module's other stores; one statement each way.
 */
public final class BenchmarkStore {

    static final String TABLE = "AioStorageBenchmarkVO";

    private final DatabaseFacade dbf;

    public BenchmarkStore(DatabaseFacade dbf) {
        this.dbf = dbf;
    }

    /** One statement: the benchmark replaces the stored one of its host, storage and image kind. */
    void save(StorageBenchmark b) {
        new JdbcTemplate(dbf.getDataSource()).update("INSERT INTO " + TABLE + " (hostUuid, primaryStorageUuid, imageKind,"
                + " outcome, note, benchLines, takenAt, createDate, lastOpDate) VALUES (?, ?, ?, ?, ?, ?, ?, NOW(), NOW())"
                + " ON DUPLICATE KEY UPDATE outcome = VALUES(outcome), note = VALUES(note), benchLines = VALUES(benchLines),"
                + " takenAt = VALUES(takenAt), createDate = NOW(), lastOpDate = NOW()", b.hostUuid(), b.primaryStorageUuid(),
                b.kind().name(), b.outcome().name(), b.note(), b.linesText(), b.takenAt());
    }

    /** The primary storages of the host with a benchmark stored within the last {@code hours} (one statement). */
    Set<String> takenWithin(String hostUuid, int hours) {
        return new HashSet<>(new JdbcTemplate(dbf.getDataSource()).queryForList("SELECT primaryStorageUuid FROM " + TABLE
                + " WHERE hostUuid = ? AND lastOpDate >= NOW() - INTERVAL ? HOUR", String.class, hostUuid, hours));
    }

    /** The newest benchmark of each storage and image kind of the host (one SELECT by hostUuid); empty: none. */
    public List<StorageBenchmark> newest(String hostUuid) {
        return new JdbcTemplate(dbf.getDataSource()).query("SELECT hostUuid, primaryStorageUuid, imageKind, takenAt, outcome,"
                + " note, benchLines FROM " + TABLE + " WHERE hostUuid = ?", (rs, i) -> StorageBenchmark.restore(
                rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5), rs.getString(6),
                rs.getString(7)), hostUuid);
    }
}
