package org.zstack.aio.zstack;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.IoModeDecision;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * The decision applied to one volume at its last VM start or hot-plug: what was requested and from which level,
 * the effective mode, every check with its sentence, and the reason. {@code operation} is start or attach.
 */
public class VolumeIoModeDecisionInventory {
    private String volumeUuid;
    private String vmInstanceUuid;
    private String hostUuid;
    private String operation;
    private String requested;
    private String source;
    private String effective;
    private boolean refused;
    private List<IoModeCheckInventory> checks;
    private String reason;
    private Timestamp lastOpDate;

    static VolumeIoModeDecisionInventory valueOf(IoModeDecision d, String vmUuid, String operation, String reason) {
        VolumeIoModeDecisionInventory i = new VolumeIoModeDecisionInventory();
        i.volumeUuid = d.volumeUuid();
        i.vmInstanceUuid = vmUuid;
        i.hostUuid = d.hostUuid();
        i.operation = operation;
        i.requested = d.requested().wire();
        i.source = d.source().wire();
        i.effective = d.effectiveWire();
        i.refused = d.refused();
        i.checks = new ArrayList<>();
        for (Check c : d.checks()) i.checks.add(IoModeCheckInventory.valueOf(c));
        i.reason = reason;
        return i;
    }

    public String getVolumeUuid() { return volumeUuid; }
    public void setVolumeUuid(String volumeUuid) { this.volumeUuid = volumeUuid; }
    public String getVmInstanceUuid() { return vmInstanceUuid; }
    public void setVmInstanceUuid(String vmInstanceUuid) { this.vmInstanceUuid = vmInstanceUuid; }
    public String getHostUuid() { return hostUuid; }
    public void setHostUuid(String hostUuid) { this.hostUuid = hostUuid; }
    public String getOperation() { return operation; }
    public void setOperation(String operation) { this.operation = operation; }
    public String getRequested() { return requested; }
    public void setRequested(String requested) { this.requested = requested; }
    public String getSource() { return source; }
    public void setSource(String source) { this.source = source; }
    public String getEffective() { return effective; }
    public void setEffective(String effective) { this.effective = effective; }
    public boolean isRefused() { return refused; }
    public void setRefused(boolean refused) { this.refused = refused; }
    public List<IoModeCheckInventory> getChecks() { return checks; }
    public void setChecks(List<IoModeCheckInventory> checks) { this.checks = checks; }
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }
    public Timestamp getLastOpDate() { return lastOpDate; }
    public void setLastOpDate(Timestamp lastOpDate) { this.lastOpDate = lastOpDate; }
}
