package org.zstack.sdk;

/**
 * A host's io facts, the same on both platforms (the standalone server's GET /v1/hosts/{uuid}/io-facts, ZStack's
 * GetHostIoFactsAction): every fact a rule tests, per host and per storage path; a null field is unknown, and
 * {@code unknown} says why.
 */
public class HostIoFactsInventory {
    public java.lang.String hostUuid;
    public java.lang.String kernel;
    /** kernel.io_uring_disabled: 0, 1 or 2; null when the kernel has no such sysctl or it is unknown */
    public java.lang.Integer ioUringDisabled;
    public java.lang.String qemu;
    /** whether QEMU really opened an image with aio=io_uring on this host */
    public java.lang.Boolean qemuIoUring;
    public java.lang.String qemuIoUringReason;
    /** whether QEMU really opened an image with aio=native on this host */
    public java.lang.Boolean qemuNative;
    public java.lang.String qemuNativeReason;
    public java.lang.String libvirt;
    /** the agent the platform counts on for this host, e.g. "ZStack's agent with the plugin-aio patch" */
    public java.lang.String agent;
    /** named facts the known-bad rules test (qemu.liburing, kernel.release, io_uring.setup, aio.free, ...) */
    public java.util.Map<String, String> probes;
    public java.util.List<StorageIoFactsInventory> storages;
    /** one sentence per fact that could not be gathered, saying why */
    public java.util.List<String> unknown;
    public java.lang.String probeOutput;
    public java.lang.String probeFailure;
    public java.lang.String probedAt;
}
