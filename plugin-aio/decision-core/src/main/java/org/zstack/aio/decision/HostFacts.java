package org.zstack.aio.decision;

import java.util.Objects;

/**
 * What the decision knows about the host that runs the VM, as probed by its agent. Any field may be null
 * when it could not be probed; a check that needs it then fails with a sentence saying so.
 */
public final class HostFacts {

    private final String hostUuid;
    private final Version kernel;
    private final Integer ioUringDisabled;
    private final Version qemu;
    private final Boolean qemuIoUring;
    private final Version libvirt;

    /**
     * @param ioUringDisabled kernel.io_uring_disabled (0, 1 or 2); null when the sysctl does not exist (kernel < 6.6)
     * @param qemuIoUring     whether this QEMU binary really opened an image with aio=io_uring in the probe
     */
    public HostFacts(String hostUuid, Version kernel, Integer ioUringDisabled, Version qemu, Boolean qemuIoUring,
                     Version libvirt) {
        this.hostUuid = hostUuid;
        this.kernel = kernel;
        this.ioUringDisabled = ioUringDisabled;
        this.qemu = qemu;
        this.qemuIoUring = qemuIoUring;
        this.libvirt = libvirt;
    }

    public String hostUuid() { return hostUuid; }

    public Version kernel() { return kernel; }

    public Integer ioUringDisabled() { return ioUringDisabled; }

    public Version qemu() { return qemu; }

    public Boolean qemuIoUring() { return qemuIoUring; }

    public Version libvirt() { return libvirt; }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof HostFacts)) return false;
        HostFacts h = (HostFacts) o;
        return Objects.equals(hostUuid, h.hostUuid) && Objects.equals(kernel, h.kernel)
               && Objects.equals(ioUringDisabled, h.ioUringDisabled) && Objects.equals(qemu, h.qemu)
               && Objects.equals(qemuIoUring, h.qemuIoUring) && Objects.equals(libvirt, h.libvirt);
    }

    @Override
    public int hashCode() { return Objects.hash(hostUuid, kernel, ioUringDisabled, qemu, qemuIoUring, libvirt); }

    @Override
    public String toString() {
        return "HostFacts[hostUuid=" + hostUuid + ", kernel=" + kernel + ", ioUringDisabled=" + ioUringDisabled
               + ", qemu=" + qemu + ", qemuIoUring=" + qemuIoUring + ", libvirt=" + libvirt + "]";
    }
}
