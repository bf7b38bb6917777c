package org.zstack.aio.decision;

/**
 * What the decision knows about the host that runs the VM, as probed by its agent. Any field may be null
 * when it could not be probed; a check that needs it then fails with a sentence saying so.
 *
 * @param ioUringDisabled kernel.io_uring_disabled (0, 1 or 2); null when the sysctl does not exist (kernel < 6.6)
 * @param qemuIoUring     whether this QEMU binary really opened an image with aio=io_uring in the probe
 */
public record HostFacts(String hostUuid, Version kernel, Integer ioUringDisabled, Version qemu,
                        Boolean qemuIoUring, Version libvirt) {
}
