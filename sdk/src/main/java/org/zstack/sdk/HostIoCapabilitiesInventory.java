package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** What a host offers for disk io, as probed by its agent. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class HostIoCapabilitiesInventory {
    public String kernel;

    /** /proc/sys/kernel/io_uring_disabled: 0, 1 or 2; null when the kernel has no such knob. */
    public Integer ioUringDisabled;

    /** QEMU version. */
    public String qemu;

    public Boolean qemuIoUring;

    public String qemuIoUringError;

    public Boolean qemuNative;

    public String qemuNativeError;

    /** libvirt version. */
    public String libvirt;

    public String libvirtUri;

    public Boolean ioUringUsable;

    /** A sentence saying why io_uring is or is not usable. */
    public String ioUringReason;

    public List<StoragePathFactsInventory> storagePaths;

    public String lastProbeDate;
}
