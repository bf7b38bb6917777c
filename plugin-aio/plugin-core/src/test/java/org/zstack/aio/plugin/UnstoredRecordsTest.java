package org.zstack.aio.plugin;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A record the platform could not store waits for the next read-back, which compares with it and stores it whole. */
class UnstoredRecordsTest {

    private static DecisionRecord record(String volume, String effective, String operation) {
        return new DecisionRecord(volume, "vm", "host", operation, effective, "global", effective, false,
                Collections.<DecisionRecord.CheckRecord>emptyList(), "why", null, null, null, null, null);
    }

    @Test
    void aReadBackComparesWithTheUnstoredRecordNotTheOlderStoredRow() {
        FakePorts ports = new FakePorts();
        ports.stored.put("v1", record("v1", "threads", "start"));
        ports.stored.put("v2", record("v2", "threads", "start"));
        UnstoredRecords unstored = new UnstoredRecords();
        unstored.keep(Collections.singletonList(record("v1", "native", "attach")));

        Map<String, DecisionRecord> seen = unstored.over(ports).stored(Arrays.asList("v1", "v2", "v3"));
        assertThat(seen.get("v1").getEffective()).isEqualTo("native");
        assertThat(seen.get("v1").getOperation()).isEqualTo("attach");
        assertThat(seen.get("v2").getEffective()).isEqualTo("threads");
        assertThat(seen).doesNotContainKey("v3");
        // the platform's store is still asked once, for every volume
        assertThat(ports.count("stored")).isEqualTo(1);
    }

    @Test
    void theReadBackStoresTheUnstoredWholeAndTheOthersAsFound() {
        UnstoredRecords unstored = new UnstoredRecords();
        unstored.keep(Collections.singletonList(record("v1", "native", "attach")));
        List<List<DecisionRecord>> split = unstored.split(Arrays.asList(record("v1", "native", "attach"),
                record("v2", "threads", "start")));
        assertThat(split.get(0)).extracting(DecisionRecord::getVolumeUuid).containsExactly("v1");
        assertThat(split.get(1)).extracting(DecisionRecord::getVolumeUuid).containsExactly("v2");
    }

    @Test
    void aStoredRecordOfTheVolumeEndsTheWait() {
        UnstoredRecords unstored = new UnstoredRecords();
        unstored.keep(Arrays.asList(record("v1", "native", "attach"), record("v2", "native", "attach")));
        // a newer one replaces the older one waiting
        unstored.keep(Collections.singletonList(record("v1", "io_uring", "start")));
        assertThat(unstored.size()).isEqualTo(2);
        assertThat(unstored.of("v1").getEffective()).isEqualTo("io_uring");
        unstored.stored(Collections.singletonList(record("v1", "threads", "start")));
        assertThat(unstored.of("v1")).isNull();
        assertThat(unstored.of("v2")).isNotNull();
        assertThat(unstored.split(Collections.singletonList(record("v1", "threads", "start"))).get(0)).isEmpty();
    }
}
