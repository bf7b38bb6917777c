package org.zstack.aio.server.benchmark;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.time.LocalDateTime;
import java.util.Objects;

/** The latest io-mode benchmark of one host × primary storage; {@code cells} is the agent's JSON list of BenchCell. */
@Entity
@Table(name = "HostIoBenchmarkVO")
@IdClass(HostIoBenchmarkVO.Key.class)
public class HostIoBenchmarkVO {
    @Id
    private String hostUuid;
    @Id
    private String primaryStorageUuid;
    private String path;
    private boolean complete;
    private String note;
    private String qemuImg;
    private int budgetSeconds;
    private long durationMillis;
    private String cells;
    private LocalDateTime takenAt;

    protected HostIoBenchmarkVO() {
    }

    public HostIoBenchmarkVO(String hostUuid, String primaryStorageUuid) {
        this.hostUuid = hostUuid;
        this.primaryStorageUuid = primaryStorageUuid;
    }

    public void set(String path, boolean complete, String note, String qemuImg, int budgetSeconds, long durationMillis,
                    String cellsJson, LocalDateTime takenAt) {
        this.path = path;
        this.complete = complete;
        this.note = note;
        this.qemuImg = qemuImg;
        this.budgetSeconds = budgetSeconds;
        this.durationMillis = durationMillis;
        this.cells = cellsJson;
        this.takenAt = takenAt;
    }

    public String getHostUuid() { return hostUuid; }
    public String getPrimaryStorageUuid() { return primaryStorageUuid; }
    public String getPath() { return path; }
    public boolean isComplete() { return complete; }
    public String getNote() { return note; }
    public String getQemuImg() { return qemuImg; }
    public int getBudgetSeconds() { return budgetSeconds; }
    public long getDurationMillis() { return durationMillis; }
    public String getCells() { return cells; }
    public LocalDateTime getTakenAt() { return takenAt; }

    /** The composite key: host × primary storage. */
    public static class Key implements Serializable {
        private String hostUuid;
        private String primaryStorageUuid;

        public Key() {
        }

        public Key(String hostUuid, String primaryStorageUuid) {
            this.hostUuid = hostUuid;
            this.primaryStorageUuid = primaryStorageUuid;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(hostUuid, k.hostUuid) && Objects.equals(primaryStorageUuid, k.primaryStorageUuid);
        }

        @Override
        public int hashCode() {
            return Objects.hash(hostUuid, primaryStorageUuid);
        }
    }
}
