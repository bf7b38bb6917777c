package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;
import java.util.Map;

/** The latest io-mode benchmark of a host × primary storage. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class HostIoBenchmarkInventory {
    public String hostUuid;
    public String primaryStorageUuid;
    public String path;
    /** ISO-8601 instant the run started. */
    public String takenAt;
    /** False when the time budget ran out or the run was cancelled before every cell was measured. */
    public boolean complete;
    public String note;
    public String qemuImg;
    public int budgetSeconds;
    public double durationSeconds;
    /** image kind → mode → geometric mean over the kind's workloads of median ops/s relative to threads. */
    public Map<String, Map<String, Double>> scores;
    public List<Cell> cells;

    /** One image kind × workload × mode. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class Cell {
        public String imageKind;
        public String workload;
        public String mode;
        public double medianOps;
        public double minOps;
        public double maxOps;
        public int runs;
        public int count;
        public String error;
    }
}
