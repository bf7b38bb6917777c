package org.zstack.sdk;

/**
 * An io mode libvirt or QEMU refused at a VM's start on a host × primary storage, remembered so that no later start
 * tries it there until it is cleared (plugin-aio-core's RefusedIoMode; one source for both SDKs).
 */
public class RefusedIoModeInventory {
    public java.lang.String hostUuid;
    public java.lang.String primaryStorageUuid;
    /** native or io_uring */
    public java.lang.String mode;
    /** the id of the words in conf/aio/io-mode-rules.yaml's startRefusals */
    public java.lang.String refusalId;
    /** QEMU or libvirt */
    public java.lang.String by;
    /** what they said */
    public java.lang.String text;
    public java.lang.String volumeUuid;
    public java.lang.String vmInstanceUuid;
    /** ISO-8601 UTC */
    public java.lang.String refusedAt;
    /** the host's QEMU and libvirt versions when it refused */
    public java.lang.String qemu;
    public java.lang.String libvirt;
    /** admin, and versionChange and/or readBack: what clears it */
    public java.util.List<String> clearedBy;
}
