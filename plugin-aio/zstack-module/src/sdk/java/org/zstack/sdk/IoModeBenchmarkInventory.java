package org.zstack.sdk;

/**
 * A stored io-mode benchmark of a host x primary storage for one image kind, as QueryIoModeBenchmarkAction and
 * RunIoModeBenchmarkAction return it: how it ended (outcome: COMPLETE, BUDGET_SPENT, CANCELLED; note: why), its lines
 * (host-bench.sh's own, "bench mode=native depth=32 rw=write iops=97466", one per run, and a skipped= line per mode the
 * host did not allow) and when it was taken (ISO-8601 UTC).
 */
public class IoModeBenchmarkInventory {
    public java.lang.String hostUuid;
    public java.lang.String primaryStorageUuid;
    public java.lang.String imageKind;
    public java.lang.String outcome;
    public java.lang.String note;
    public java.util.List<String> lines;
    public java.lang.String takenAt;
    public java.sql.Timestamp createDate;
    public java.sql.Timestamp lastOpDate;

    public java.lang.String getHostUuid() { return hostUuid; }
    public void setHostUuid(java.lang.String v) { hostUuid = v; }
    public java.lang.String getPrimaryStorageUuid() { return primaryStorageUuid; }
    public void setPrimaryStorageUuid(java.lang.String v) { primaryStorageUuid = v; }
    public java.lang.String getImageKind() { return imageKind; }
    public void setImageKind(java.lang.String v) { imageKind = v; }
    public java.lang.String getOutcome() { return outcome; }
    public void setOutcome(java.lang.String v) { outcome = v; }
    public java.lang.String getNote() { return note; }
    public void setNote(java.lang.String v) { note = v; }
    public java.util.List<String> getLines() { return lines; }
    public void setLines(java.util.List<String> v) { lines = v; }
    public java.lang.String getTakenAt() { return takenAt; }
    public void setTakenAt(java.lang.String v) { takenAt = v; }
    public java.sql.Timestamp getCreateDate() { return createDate; }
    public void setCreateDate(java.sql.Timestamp v) { createDate = v; }
    public java.sql.Timestamp getLastOpDate() { return lastOpDate; }
    public void setLastOpDate(java.sql.Timestamp v) { lastOpDate = v; }
}
