package org.zstack.sdk;

/** The io-mode decision plugin-aio applied to a volume at its last VM start or hot-plug. */
public class VolumeIoModeDecisionInventory {
    public java.lang.String volumeUuid;
    public java.lang.String vmInstanceUuid;
    public java.lang.String hostUuid;
    /** start or attach */
    public java.lang.String operation;
    public java.lang.String requested;
    /** VolumeVO, PrimaryStorageVO or global */
    public java.lang.String source;
    /** the io mode, not-applicable, or null when refused */
    public java.lang.String effective;
    public boolean refused;
    public java.util.List<IoModeCheckInventory> checks;
    public java.lang.String reason;
    public java.sql.Timestamp lastOpDate;

    public java.lang.String getVolumeUuid() { return volumeUuid; }
    public java.lang.String getVmInstanceUuid() { return vmInstanceUuid; }
    public java.lang.String getHostUuid() { return hostUuid; }
    public java.lang.String getOperation() { return operation; }
    public java.lang.String getRequested() { return requested; }
    public java.lang.String getSource() { return source; }
    public java.lang.String getEffective() { return effective; }
    public boolean isRefused() { return refused; }
    public java.util.List<IoModeCheckInventory> getChecks() { return checks; }
    public java.lang.String getReason() { return reason; }
    public java.sql.Timestamp getLastOpDate() { return lastOpDate; }
}
