package org.zstack.aio.zstack;

import org.zstack.aio.plugin.IsoDates;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.plugin.AgentProfile;
import org.zstack.aio.plugin.HostIoProbe;

import java.util.List;
import java.util.Map;

/**
 * A host's io facts as the decision reads them (plugin-aio-core's {@link HostIoProbe}): each version as compared,
 * null when unknown, with one sentence per unknown fact, and the probe's own lines.
 */
public class HostIoFactsInventory {
    private String hostUuid;
    private String kernel;
    private Integer ioUringDisabled;
    private String qemu;
    private Boolean qemuIoUring;
    private String qemuIoUringReason;
    private String libvirt;
    private Boolean kvmagentPatch;
    private String agent;
    private Map<String, String> probes;
    private List<String> unknown;
    private String probeOutput;
    private String probeFailure;
    private String probedAt;

    static HostIoFactsInventory of(HostIoProbe p, HostIoFactsStore.Probed row) {
        HostFacts f = p.facts();
        HostIoFactsInventory inv = new HostIoFactsInventory();
        inv.hostUuid = f.hostUuid();
        inv.kernel = f.kernel() == null ? null : f.kernel().toString();
        inv.ioUringDisabled = f.ioUringDisabled();
        inv.qemu = f.qemu() == null ? null : f.qemu().toString();
        inv.qemuIoUring = f.qemuIoUring();
        inv.qemuIoUringReason = p.qemuIoUringReason();
        inv.libvirt = f.libvirt() == null ? null : f.libvirt().toString();
        inv.kvmagentPatch = p.kvmagentPatch();
        inv.agent = AgentProfile.zstack(p.kvmagentPatch()).name();
        inv.probes = f.probes();
        inv.unknown = p.unknown();
        if (row != null) {
            inv.probeOutput = row.output;
            inv.probeFailure = row.failure;
            inv.probedAt = row.at == null ? null : IsoDates.format(row.at.getTime());
        }
        return inv;
    }

    public String getHostUuid() { return hostUuid; }

    public void setHostUuid(String hostUuid) { this.hostUuid = hostUuid; }

    public String getKernel() { return kernel; }

    public void setKernel(String kernel) { this.kernel = kernel; }

    public Integer getIoUringDisabled() { return ioUringDisabled; }

    public void setIoUringDisabled(Integer ioUringDisabled) { this.ioUringDisabled = ioUringDisabled; }

    public String getQemu() { return qemu; }

    public void setQemu(String qemu) { this.qemu = qemu; }

    public Boolean getQemuIoUring() { return qemuIoUring; }

    public void setQemuIoUring(Boolean qemuIoUring) { this.qemuIoUring = qemuIoUring; }

    public String getQemuIoUringReason() { return qemuIoUringReason; }

    public void setQemuIoUringReason(String qemuIoUringReason) { this.qemuIoUringReason = qemuIoUringReason; }

    public String getLibvirt() { return libvirt; }

    public void setLibvirt(String libvirt) { this.libvirt = libvirt; }

    /** whether the host's kvmagent carries plugin-aio's hot-plug patch; null: unknown */
    public Boolean getKvmagentPatch() { return kvmagentPatch; }

    public void setKvmagentPatch(Boolean kvmagentPatch) { this.kvmagentPatch = kvmagentPatch; }

    /** the agent the module counts on for this host, e.g. "ZStack's agent with the plugin-aio patch" */
    public String getAgent() { return agent; }

    public void setAgent(String agent) { this.agent = agent; }

    public Map<String, String> getProbes() { return probes; }

    public void setProbes(Map<String, String> probes) { this.probes = probes; }

    public List<String> getUnknown() { return unknown; }

    public void setUnknown(List<String> unknown) { this.unknown = unknown; }

    public String getProbeOutput() { return probeOutput; }

    public void setProbeOutput(String probeOutput) { this.probeOutput = probeOutput; }

    public String getProbeFailure() { return probeFailure; }

    public void setProbeFailure(String probeFailure) { this.probeFailure = probeFailure; }

    public String getProbedAt() { return probedAt; }

    public void setProbedAt(String probedAt) { this.probedAt = probedAt; }
}
