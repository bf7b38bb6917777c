package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ZStack module's one statement per operation: every stored column, the date kept while the content is unchanged. */
class DecisionUpsertTest {

    private static final DecisionUpsert.Json JSON = v -> "json:" + v;

    private static DecisionRecord record(String volume, List<DecisionRecord.AttemptRecord> attempts) {
        return new DecisionRecord(volume, "vm", "host", "start", "native", "global", "native", false,
                Collections.singletonList(new DecisionRecord.CheckRecord("native", "cache-mode", true, "ok")), "why",
                null, null, attempts, null, null);
    }

    @Test
    void everyStoredColumnButTheDateIsWrittenRowByRow() {
        DecisionUpsert u = DecisionUpsert.of("T", Arrays.asList(record("v1", null),
                record("v2", Collections.singletonList(new DecisionRecord.AttemptRecord("native", "refused")))), JSON);
        String insert = u.sql().substring(0, u.sql().indexOf(") VALUES"));
        assertThat(insert).isEqualTo("INSERT INTO T (" + String.join(", ", DecisionRecord.STORED_COLUMNS) + ", lastOpDate");
        int perRow = DecisionRecord.STORED_COLUMNS.size() - 1;
        assertThat(u.args()).hasSize(2 * perRow);
        assertThat(u.sql()).contains("VALUES (?" + ", ?".repeat(perRow - 1) + ", NOW(), NOW()), (?");
        // row by row, in the order of the columns: the key first, nested records as the platform's JSON
        assertThat(u.args().get(0)).isEqualTo("v1");
        assertThat(u.args().get(perRow)).isEqualTo("v2");
        int checks = DecisionRecord.STORED_COLUMNS.indexOf("checks");
        int attempts = DecisionRecord.STORED_COLUMNS.indexOf("attempts");
        assertThat((String) u.args().get(checks)).startsWith("json:");
        assertThat(u.args().get(attempts)).isNull();
        assertThat((String) u.args().get(perRow + attempts)).startsWith("json:");
        assertThat(u.args().get(DecisionRecord.STORED_COLUMNS.indexOf("refused"))).isEqualTo(false);
        // only the nested records are JSON text, and they are stored columns
        assertThat(DecisionRecord.STORED_COLUMNS).containsAll(DecisionUpsert.JSON_COLUMNS);
        for (int i = 0; i < perRow; i++) {
            boolean json = DecisionUpsert.JSON_COLUMNS.contains(DecisionRecord.STORED_COLUMNS.get(i));
            Object v = u.args().get(perRow + i);
            assertThat(v instanceof String && ((String) v).startsWith("json:")).as(DecisionRecord.STORED_COLUMNS.get(i))
                    .isEqualTo(json && v != null);
        }
    }

    @Test
    void theDateChangesOnlyWhenSomeContentColumnDoes() {
        String sql = DecisionUpsert.of("T", Collections.singletonList(record("v1", null)), JSON).sql();
        String keep = sql.substring(sql.indexOf("createDate = IF("), sql.indexOf(", createDate, NOW())"));
        for (String c : DecisionRecord.STORED_COLUMNS) {
            if (c.equals("volumeUuid") || c.equals("createDate")) {
                assertThat(keep).doesNotContain(c + " <=>");
            } else if (DecisionUpsert.READ_BACK_COLUMNS.contains(c) || DecisionUpsert.APPLIED_COLUMNS.contains(c)) {
                // written (an operation's records are not read back yet) but not what "decided since" compares: a start
                // after a read-back that found the live driver keeps the decision's date
                assertThat(keep).doesNotContain(c + " <=>");
                assertThat(sql).contains(", " + c + " = VALUES(" + c + ")");
            } else {
                assertThat(keep).contains(c + " <=> VALUES(" + c + ")");
                assertThat(sql).contains(", " + c + " = VALUES(" + c + ")");
            }
        }
        // the comparison comes before the columns are replaced (MariaDB assigns left to right)
        assertThat(sql.indexOf("createDate = IF(")).isLessThan(sql.indexOf(", vmInstanceUuid = VALUES("));
        assertThat(sql).endsWith(", lastOpDate = NOW()");
    }

    @Test
    void aReadBackIsStoredAsItsColumnsTheDateAsATimestamp() {
        DecisionRecord read = new DecisionRecord("v1", "vm", "host", "start", "io_uring", "global", "io_uring", false,
                Collections.<DecisionRecord.CheckRecord>emptyList(), "why", null, null, null, null, "threads",
                "2026-11-27T10:00:00.123Z", "runs threads", null);
        assertThat(DecisionUpsert.value(read, "runningIo", JSON)).isEqualTo("threads");
        assertThat(DecisionUpsert.value(read, "disagreement", JSON)).isEqualTo("runs threads");
        assertThat(DecisionUpsert.value(read, "readBackAt", JSON))
                .isEqualTo(new java.sql.Timestamp(java.time.Instant.parse("2026-11-27T10:00:00.123Z").toEpochMilli()));
        assertThat(DecisionUpsert.value(record("v1", null), "readBackAt", JSON)).isNull();
    }

    @Test
    void aReadBackWritesOnlyWhatItFoundOnRowsStillHoldingTheDecisionItCompared() {
        DecisionRecord a = new DecisionRecord("v1", "vm", "host", "start", "io_uring", "global", "io_uring", false,
                Collections.<DecisionRecord.CheckRecord>emptyList(), "why", "io_uring", "none", null, null, "threads",
                "2026-11-27T10:00:00.123Z", "runs threads", null);
        DecisionRecord b = new DecisionRecord("v2", "vm", "host", "attach", "native", "global", "native", false,
                Collections.<DecisionRecord.CheckRecord>emptyList(), "why", "native", "none", null, null, "native",
                "2026-11-27T10:00:00.123Z", null, null);
        DecisionUpsert u = DecisionUpsert.readBack("T", Arrays.asList(a, b));
        String sql = u.sql();
        // an UPDATE: a row deleted meanwhile (its volume gone) is not created again
        assertThat(sql).startsWith("UPDATE T SET ").doesNotContain("INSERT");
        // what it writes: the live driver and the read-back, nothing of the decision nor its date
        String set = sql.substring(0, sql.indexOf(" WHERE "));
        for (String c : DecisionRecord.STORED_COLUMNS) {
            boolean written = DecisionUpsert.READ_BACK_COLUMNS.contains(c) || DecisionUpsert.APPLIED_COLUMNS.contains(c);
            assertThat(set.contains(" " + c + " = CASE volumeUuid WHEN ? THEN ? WHEN ? THEN ? END")).as(c).isEqualTo(written);
        }
        assertThat(set).doesNotContain("createDate").endsWith("lastOpDate = NOW()");
        // each row only while it still holds the decision the read-back compared with
        assertThat(sql.substring(sql.indexOf(" WHERE "))).isEqualTo(" WHERE (volumeUuid = ? AND vmInstanceUuid <=> ?"
                + " AND hostUuid <=> ? AND operation <=> ? AND effective <=> ?) OR (volumeUuid = ? AND vmInstanceUuid <=> ?"
                + " AND hostUuid <=> ? AND operation <=> ? AND effective <=> ?)");
        java.sql.Timestamp at = new java.sql.Timestamp(java.time.Instant.parse("2026-11-27T10:00:00.123Z").toEpochMilli());
        assertThat(u.args()).containsExactly(
                "v1", "io_uring", "v2", "native",           // appliedIo
                "v1", "none", "v2", "none",                 // appliedCache
                "v1", "threads", "v2", "native",            // runningIo
                "v1", at, "v2", at,                         // readBackAt
                "v1", "runs threads", "v2", null,           // disagreement
                "v1", "vm", "host", "start", "io_uring",    // row 1's guard
                "v2", "vm", "host", "attach", "native");    // row 2's guard
        assertThatThrownBy(() -> DecisionUpsert.readBack("T", Collections.emptyList())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nothingToStoreIsNoStatement() {
        assertThatThrownBy(() -> DecisionUpsert.of("T", Collections.emptyList(), JSON)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DecisionUpsert.value(record("v", null), "digest", JSON))
                .hasMessageContaining("no value for the stored column digest");
    }
}
