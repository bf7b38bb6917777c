package org.zstack.aio.server.iomode;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/** The decision last applied to a volume (VM start or attach), with what libvirt/QEMU accepted. */
@Entity
@Table(name = "VolumeIoModeDecisionVO")
public class VolumeIoModeDecisionVO {
    @Id
    private String volumeUuid;
    private String vmInstanceUuid;
    /** start, attach or migrate (the core's Operation); null for a row stored before 4.9.14 */
    private String operation;
    private String hostUuid;
    private String requested;
    private String source;
    private String effective;
    private boolean refused;
    /** JSON list of checks */
    private String checks;
    private String reason;
    private String appliedIo;
    private String appliedCache;
    /** JSON list of refused attempts */
    private String attempts;
    /** JSON of the observed workload an auto decision optimised for; null when it used none */
    private String optimizedFor;
    /**
     * The last read-back (plugin-aio-core's DecisionRecord: what the disk runs, when it was read, how that differs from
     * the decision). This server's agent reports what each disk got at every operation, so it reads nothing back and
     * these stay null; they are here because both platforms store the same record (StoredColumnsTest).
     */
    private String runningIo;
    private LocalDateTime readBackAt;
    private String disagreement;
    /** {@link DecisionDigest} of the fields above: a start compares this instead of loading the row */
    private String contentDigest;
    private LocalDateTime createDate;

    protected VolumeIoModeDecisionVO() {
    }

    public VolumeIoModeDecisionVO(String volumeUuid) {
        this.volumeUuid = volumeUuid;
    }

    /**
     * Stores this decision. An identical one leaves the row (and its decidedAt, "decided so since") untouched, so a
     * VM started again with nothing changed writes nothing: no UPDATE per disk on every start.
     */
    void set(String vmInstanceUuid, String operation, String hostUuid, String requested, String source, String effective, boolean refused,
             String checks, String reason, String appliedIo, String appliedCache, String attempts, String optimizedFor,
             String contentDigest) {
        this.contentDigest = contentDigest; // a row stored before digests gets one without being "decided" anew
        boolean same = createDate != null && Objects.equals(this.vmInstanceUuid, vmInstanceUuid)
                       && Objects.equals(this.operation, operation)
                       && Objects.equals(this.hostUuid, hostUuid) && Objects.equals(this.requested, requested)
                       && Objects.equals(this.source, source) && Objects.equals(this.effective, effective)
                       && this.refused == refused && Objects.equals(this.checks, checks) && Objects.equals(this.reason, reason)
                       && Objects.equals(this.appliedIo, appliedIo) && Objects.equals(this.appliedCache, appliedCache)
                       && Objects.equals(this.attempts, attempts) && Objects.equals(this.optimizedFor, optimizedFor);
        if (same) return;
        this.vmInstanceUuid = vmInstanceUuid;
        this.operation = operation;
        this.hostUuid = hostUuid;
        this.requested = requested;
        this.source = source;
        this.effective = effective;
        this.refused = refused;
        this.checks = checks;
        this.reason = reason;
        this.appliedIo = appliedIo;
        this.appliedCache = appliedCache;
        this.attempts = attempts;
        this.optimizedFor = optimizedFor;
        this.createDate = LocalDateTime.now().truncatedTo(ChronoUnit.MILLIS); // the column keeps milliseconds
    }

    public String getVolumeUuid() { return volumeUuid; }
    public String getVmInstanceUuid() { return vmInstanceUuid; }
    public String getOperation() { return operation; }
    public String getHostUuid() { return hostUuid; }
    public String getRequested() { return requested; }
    public String getSource() { return source; }
    public String getEffective() { return effective; }
    public boolean isRefused() { return refused; }
    public String getChecks() { return checks; }
    public String getReason() { return reason; }
    public String getAppliedIo() { return appliedIo; }
    public String getAppliedCache() { return appliedCache; }
    public String getAttempts() { return attempts; }
    public String getOptimizedFor() { return optimizedFor; }
    public String getRunningIo() { return runningIo; }
    public LocalDateTime getReadBackAt() { return readBackAt; }
    public String getDisagreement() { return disagreement; }
    public String getContentDigest() { return contentDigest; }
    public LocalDateTime getCreateDate() { return createDate; }
}
