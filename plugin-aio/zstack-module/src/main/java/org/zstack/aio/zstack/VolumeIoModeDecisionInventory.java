package org.zstack.aio.zstack;

import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.core.Platform;
import org.zstack.header.query.Unqueryable;
import org.zstack.header.search.Inventory;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A stored decision as ZStack's query API returns it (APIQueryVolumeIoModeDecisionMsg): the core's
 * {@link DecisionRecord} fields, which the SDK's org.zstack.sdk.VolumeIoModeDecisionInventory reads, plus ZStack's
 * {@code createDate} / {@code lastOpDate} to sort and filter by ({@code decidedAt} is {@code createDate} in ISO-8601),
 * and the last read-back: {@code runningIo}, {@code disagreement} (both queryable) and {@code readBackAt} (ISO-8601),
 * and the volume's observed workload as last sampled ({@code workload}, from AioVolumeWorkloadVO: read for a whole
 * page in one statement; shown, not queryable).
 */
@Inventory(mappingVOClass = AioVolumeIoModeDecisionVO.class)
public class VolumeIoModeDecisionInventory {
    private String volumeUuid;
    private String vmInstanceUuid;
    private String hostUuid;
    private String operation;
    private String requested;
    private String source;
    private String effective;
    private boolean refused;
    private List<DecisionRecord.CheckRecord> checks;
    private String reason;
    private String appliedIo;
    private String appliedCache;
    private List<DecisionRecord.AttemptRecord> attempts;
    private DecisionRecord.WorkloadRecord optimizedFor;
    private String runningIo;
    private String readBackAt;
    private String disagreement;
    private String decidedAt;
    private Timestamp createDate;
    private Timestamp lastOpDate;
    @Unqueryable
    private DecisionRecord.WorkloadRecord workload;

    public static VolumeIoModeDecisionInventory valueOf(AioVolumeIoModeDecisionVO vo) {
        DecisionRecord r = vo.toRecord();
        VolumeIoModeDecisionInventory inv = new VolumeIoModeDecisionInventory();
        inv.volumeUuid = r.getVolumeUuid();
        inv.vmInstanceUuid = r.getVmInstanceUuid();
        inv.hostUuid = r.getHostUuid();
        inv.operation = r.getOperation();
        inv.requested = r.getRequested();
        inv.source = r.getSource();
        inv.effective = r.getEffective();
        inv.refused = r.isRefused();
        inv.checks = r.getChecks();
        inv.reason = r.getReason();
        inv.appliedIo = r.getAppliedIo();
        inv.appliedCache = r.getAppliedCache();
        inv.attempts = r.getAttempts();
        inv.optimizedFor = r.getOptimizedFor();
        inv.runningIo = r.getRunningIo();
        inv.readBackAt = r.getReadBackAt();
        inv.disagreement = r.getDisagreement();
        inv.decidedAt = r.getDecidedAt();
        inv.createDate = vo.getCreateDate();
        inv.lastOpDate = vo.getLastOpDate();
        return inv;
    }

    public static List<VolumeIoModeDecisionInventory> valueOf(Collection<AioVolumeIoModeDecisionVO> vos) {
        List<VolumeIoModeDecisionInventory> invs = new ArrayList<>();
        List<String> volumes = new ArrayList<>();
        for (AioVolumeIoModeDecisionVO vo : vos) {
            VolumeIoModeDecisionInventory inv = valueOf(vo);
            invs.add(inv);
            volumes.add(inv.volumeUuid);
        }
        Map<String, WorkloadProfile> sampled = Platform.getComponentLoader().getComponent(WorkloadStore.class).profiles(volumes);
        for (VolumeIoModeDecisionInventory inv : invs) {
            WorkloadProfile p = sampled.get(inv.volumeUuid);
            inv.workload = p == null ? null : DecisionRecord.WorkloadRecord.of(p);
        }
        return invs;
    }

    public DecisionRecord.WorkloadRecord getWorkload() {
        return workload;
    }

    public void setWorkload(DecisionRecord.WorkloadRecord workload) {
        this.workload = workload;
    }

    public String getVolumeUuid() {
        return volumeUuid;
    }

    public void setVolumeUuid(String volumeUuid) {
        this.volumeUuid = volumeUuid;
    }

    public String getVmInstanceUuid() {
        return vmInstanceUuid;
    }

    public void setVmInstanceUuid(String vmInstanceUuid) {
        this.vmInstanceUuid = vmInstanceUuid;
    }

    public String getHostUuid() {
        return hostUuid;
    }

    public void setHostUuid(String hostUuid) {
        this.hostUuid = hostUuid;
    }

    public String getOperation() {
        return operation;
    }

    public void setOperation(String operation) {
        this.operation = operation;
    }

    public String getRequested() {
        return requested;
    }

    public void setRequested(String requested) {
        this.requested = requested;
    }

    public String getSource() {
        return source;
    }

    public void setSource(String source) {
        this.source = source;
    }

    public String getEffective() {
        return effective;
    }

    public void setEffective(String effective) {
        this.effective = effective;
    }

    public boolean isRefused() {
        return refused;
    }

    public void setRefused(boolean refused) {
        this.refused = refused;
    }

    public List<DecisionRecord.CheckRecord> getChecks() {
        return checks;
    }

    public void setChecks(List<DecisionRecord.CheckRecord> checks) {
        this.checks = checks;
    }

    public String getReason() {
        return reason;
    }

    public void setReason(String reason) {
        this.reason = reason;
    }

    public String getAppliedIo() {
        return appliedIo;
    }

    public void setAppliedIo(String appliedIo) {
        this.appliedIo = appliedIo;
    }

    public String getAppliedCache() {
        return appliedCache;
    }

    public void setAppliedCache(String appliedCache) {
        this.appliedCache = appliedCache;
    }

    public List<DecisionRecord.AttemptRecord> getAttempts() {
        return attempts;
    }

    public void setAttempts(List<DecisionRecord.AttemptRecord> attempts) {
        this.attempts = attempts;
    }

    public DecisionRecord.WorkloadRecord getOptimizedFor() {
        return optimizedFor;
    }

    public void setOptimizedFor(DecisionRecord.WorkloadRecord optimizedFor) {
        this.optimizedFor = optimizedFor;
    }

    /** what the disk runs as last read back from its host; null: never read back */
    public String getRunningIo() {
        return runningIo;
    }

    public void setRunningIo(String runningIo) {
        this.runningIo = runningIo;
    }

    /** when it was last read back, ISO-8601 UTC */
    public String getReadBackAt() {
        return readBackAt;
    }

    public void setReadBackAt(String readBackAt) {
        this.readBackAt = readBackAt;
    }

    /** how what it runs differs from the decision, one sentence; null when it agrees */
    public String getDisagreement() {
        return disagreement;
    }

    public void setDisagreement(String disagreement) {
        this.disagreement = disagreement;
    }

    public String getDecidedAt() {
        return decidedAt;
    }

    public void setDecidedAt(String decidedAt) {
        this.decidedAt = decidedAt;
    }

    public Timestamp getCreateDate() {
        return createDate;
    }

    public void setCreateDate(Timestamp createDate) {
        this.createDate = createDate;
    }

    public Timestamp getLastOpDate() {
        return lastOpDate;
    }

    public void setLastOpDate(Timestamp lastOpDate) {
        this.lastOpDate = lastOpDate;
    }
}
