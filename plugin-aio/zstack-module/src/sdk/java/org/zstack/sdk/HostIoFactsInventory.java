package org.zstack.sdk;

/** A host's io facts as plugin-aio probed them (GetHostIoFactsAction); null fields are unknown, and unknown says why. */
public class HostIoFactsInventory {
    public java.lang.String hostUuid;
    public java.lang.String kernel;
    public java.lang.Integer ioUringDisabled;
    public java.lang.String qemu;
    public java.lang.Boolean qemuIoUring;
    public java.lang.String qemuIoUringReason;
    public java.lang.String libvirt;
    /** whether the host's kvmagent carries plugin-aio's hot-plug patch (null: unknown) */
    public java.lang.Boolean kvmagentPatch;
    /** the agent the module counts on for this host */
    public java.lang.String agent;
    public java.util.Map<String, String> probes;
    public java.util.List<String> unknown;
    public java.lang.String probeOutput;
    public java.lang.String probeFailure;
    public java.lang.String probedAt;
}
