package org.zstack.aio.zstack;

import org.zstack.aio.plugin.bench.StorageBenchmark;

import javax.persistence.Column;
import javax.persistence.Entity;
import javax.persistence.Id;
import javax.persistence.IdClass;
import javax.persistence.Table;
import java.io.Serializable;
import java.sql.Timestamp;
import java.util.Objects;

/**
 * A stored io-mode benchmark (V5.2.1.112) as ZStack's JPA sees it, so that ZStack's query service can answer
 * APIQueryIoModeBenchmarkMsg: one row per host x primary storage x image kind, exactly plugin-core's
 * {@link StorageBenchmark}. Written and read by {@link BenchmarkStore} in plain SQL; {@link AioPersistenceUnit} adds
 * this entity to ZStack's persistence unit.
 */
@Entity
@Table(name = "AioStorageBenchmarkVO")
@IdClass(AioStorageBenchmarkVO.Key.class)
public class AioStorageBenchmarkVO {
    @Id
    @Column
    private String hostUuid;
    @Id
    @Column
    private String primaryStorageUuid;
    @Id
    @Column
    private String imageKind;
    @Column
    private String outcome;
    @Column
    private String note;
    @Column
    private String benchLines;
    @Column
    private String takenAt;
    @Column
    private Timestamp createDate;
    @Column
    private Timestamp lastOpDate;

    /** The composite key (JPA's IdClass). */
    public static class Key implements Serializable {
        private String hostUuid;
        private String primaryStorageUuid;
        private String imageKind;

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) return false;
            Key k = (Key) o;
            return Objects.equals(hostUuid, k.hostUuid) && Objects.equals(primaryStorageUuid, k.primaryStorageUuid)
                    && Objects.equals(imageKind, k.imageKind);
        }

        @Override
        public int hashCode() {
            return Objects.hash(hostUuid, primaryStorageUuid, imageKind);
        }
    }

    StorageBenchmark toBenchmark() {
        return StorageBenchmark.restore(hostUuid, primaryStorageUuid, imageKind, takenAt, outcome, note, benchLines);
    }

    public String getHostUuid() {
        return hostUuid;
    }

    public String getPrimaryStorageUuid() {
        return primaryStorageUuid;
    }

    public String getImageKind() {
        return imageKind;
    }

    public String getOutcome() {
        return outcome;
    }

    public String getNote() {
        return note;
    }

    public String getBenchLines() {
        return benchLines;
    }

    public String getTakenAt() {
        return takenAt;
    }

    public Timestamp getCreateDate() {
        return createDate;
    }

    public Timestamp getLastOpDate() {
        return lastOpDate;
    }
}
