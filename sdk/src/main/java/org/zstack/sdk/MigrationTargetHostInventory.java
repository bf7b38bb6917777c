package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** A host a VM could migrate to: the host, what each disk would run there, and what would stop the migration. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class MigrationTargetHostInventory extends HostInventory {
    /** One per disk of the VM, by device id. */
    public List<DiskIoMode> ioModes;

    /** Why the VM cannot move there (names the volume, the host and the check); null when it can. */
    public String migrationBlocker;

    /** One disk's io mode on that host. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public static class DiskIoMode {
        public String volumeUuid;
        public String volumeName;
        /** threads, native, io_uring or auto */
        public String requested;
        public String effective;
        /** true: onUnsatisfied = fail and a check refuses the requested mode there */
        public boolean refused;
        /** the check that made it fall back or refuse; null when none did */
        public String failedCheck;
        public String reason;
    }
}
