package org.zstack.aio.plugin;

import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.Version;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one host-facts contract of both platforms: every fact a rule tests, per host (versions, the io_uring sysctl,
 * whether QEMU opens an image with io_uring or native, named probes) and per storage path ({@link StorageIoFacts}),
 * with one sentence per fact that could not be gathered and why. Each platform fills what it can (the standalone
 * agent's probe at connect, ZStack's host-probe.sh over KvmRunShellMsg) and both APIs return this type as it is (SDK
 * class {@code org.zstack.sdk.HostIoFactsInventory}, one source for both SDKs). Versions are as compared: a text that
 * is no version is stored as unknown, with its sentence.
 */
public final class HostIoFacts {

    private final String hostUuid;
    private final String kernel;
    private final Integer ioUringDisabled;
    private final String qemu;
    private final Boolean qemuIoUring;
    private final String qemuIoUringReason;
    private final Boolean qemuNative;
    private final String qemuNativeReason;
    private final String libvirt;
    private final String agent;
    private final Map<String, String> probes;
    private final List<StorageIoFacts> storages;
    private final List<String> unknown;
    private final String probeOutput;
    private final String probeFailure;
    private final String probedAt;
    /** parsed once: a preview over many volumes asks for it per volume */
    private transient HostFacts decisionFacts;

    private HostIoFacts(Builder b) {
        this.hostUuid = b.hostUuid;
        this.kernel = b.kernel == null ? null : b.kernel.toString();
        this.ioUringDisabled = b.ioUringDisabled;
        this.qemu = b.qemu == null ? null : b.qemu.toString();
        this.qemuIoUring = b.qemuIoUring;
        this.qemuIoUringReason = b.qemuIoUringReason;
        this.qemuNative = b.qemuNative;
        this.qemuNativeReason = b.qemuNativeReason;
        this.libvirt = b.libvirt == null ? null : b.libvirt.toString();
        this.agent = b.agent;
        this.probes = Collections.unmodifiableMap(new LinkedHashMap<String, String>(b.probes));
        this.storages = Collections.unmodifiableList(new ArrayList<StorageIoFacts>(b.storages));
        this.unknown = Collections.unmodifiableList(new ArrayList<String>(b.unknown));
        this.probeOutput = b.probeOutput;
        this.probeFailure = b.probeFailure;
        this.probedAt = b.probedAt;
    }

    public static Builder builder(String hostUuid) { return new Builder(hostUuid); }

    /** A host never probed: every fact unknown, for {@code why} (e.g. "the host was never probed"). */
    public static HostIoFacts unknown(String hostUuid, String why) {
        return builder(hostUuid).unknown("every io fact of the host is unknown: " + why + ".").build();
    }

    /** The facts the decision core reads (versions parsed, named probes), package-private: only the use case decides. */
    HostFacts decisionFacts() {
        HostFacts f = decisionFacts;
        if (f == null) {
            // computing it twice gives the same value: no lock needed
            decisionFacts = f = new HostFacts(hostUuid, Version.parseOrNull(kernel), ioUringDisabled, Version.parseOrNull(qemu),
                    qemuIoUring, Version.parseOrNull(libvirt), probes);
        }
        return f;
    }

    /** The facts of the storage path of primary storage {@code uuid}; null when none was gathered. */
    public StorageIoFacts storage(String primaryStorageUuid) {
        if (primaryStorageUuid == null) return null;
        for (StorageIoFacts s : storages) if (primaryStorageUuid.equals(s.getPrimaryStorageUuid())) return s;
        return null;
    }

    public String getHostUuid() { return hostUuid; }
    /** the kernel version as compared (uname -r's leading numbers); null: unknown */
    public String getKernel() { return kernel; }
    /** kernel.io_uring_disabled (0, 1 or 2); null when the kernel has no such sysctl, or unknown (see unknown) */
    public Integer getIoUringDisabled() { return ioUringDisabled; }
    public String getQemu() { return qemu; }
    /** whether QEMU really opened an image with aio=io_uring on this host; null: unknown */
    public Boolean getQemuIoUring() { return qemuIoUring; }
    /** with qemuIoUring false: what QEMU said */
    public String getQemuIoUringReason() { return qemuIoUringReason; }
    /** whether QEMU really opened an image with aio=native; null: not gathered */
    public Boolean getQemuNative() { return qemuNative; }
    public String getQemuNativeReason() { return qemuNativeReason; }
    public String getLibvirt() { return libvirt; }
    /** the agent the platform counts on for this host ({@link AgentProfile#name()}); null: not said */
    public String getAgent() { return agent; }
    /** named facts known-bad rules match as data (qemu.liburing, kernel.release, io_uring.setup, aio.free, ...) */
    public Map<String, String> getProbes() { return probes; }
    public List<StorageIoFacts> getStorages() { return storages; }
    /** one sentence per fact that could not be gathered, saying why; empty when all were */
    public List<String> getUnknown() { return unknown; }
    /** what the host printed, where the platform gathers the facts as text (ZStack's host probe); null otherwise */
    public String getProbeOutput() { return probeOutput; }
    /** why the host gave no facts (the probe or agent failed); null when it did */
    public String getProbeFailure() { return probeFailure; }
    /** ISO-8601 UTC; null: never gathered */
    public String getProbedAt() { return probedAt; }

    /** The same facts with the agent the platform counts on named. */
    public HostIoFacts withAgent(String agentName) {
        return toBuilder().agent(agentName).build();
    }

    /** The same facts with each storage path's facts (replacing those gathered before). */
    public HostIoFacts withStorages(List<StorageIoFacts> paths) {
        Builder b = toBuilder();
        b.storages.clear();
        b.storages.addAll(paths);
        return b.build();
    }

    private Builder toBuilder() {
        Builder b = new Builder(hostUuid).kernel(Version.parseOrNull(kernel)).ioUringDisabled(ioUringDisabled)
                .qemu(Version.parseOrNull(qemu)).qemuIoUring(qemuIoUring, qemuIoUringReason).qemuNative(qemuNative, qemuNativeReason)
                .libvirt(Version.parseOrNull(libvirt)).agent(agent).raw(probeOutput, probeFailure).probedAt(probedAt);
        b.probes.putAll(probes);
        b.storages.addAll(storages);
        b.unknown.addAll(unknown);
        return b;
    }

    @Override
    public String toString() {
        return "HostIoFacts[" + hostUuid + ", kernel=" + kernel + ", ioUringDisabled=" + ioUringDisabled + ", qemu=" + qemu
               + ", qemuIoUring=" + qemuIoUring + ", libvirt=" + libvirt + ", probes=" + probes + ", storages=" + storages
               + ", unknown=" + unknown + "]";
    }

    /** Fills the contract; a platform sets what it gathered and says, with {@link #unknown(String)}, what it could not. */
    public static final class Builder {
        private final String hostUuid;
        private Version kernel;
        private Integer ioUringDisabled;
        private Version qemu;
        private Boolean qemuIoUring;
        private String qemuIoUringReason;
        private Boolean qemuNative;
        private String qemuNativeReason;
        private Version libvirt;
        private String agent;
        private final Map<String, String> probes = new LinkedHashMap<String, String>();
        private final List<StorageIoFacts> storages = new ArrayList<StorageIoFacts>();
        private final List<String> unknown = new ArrayList<String>();
        private String probeOutput;
        private String probeFailure;
        private String probedAt;

        private Builder(String hostUuid) { this.hostUuid = hostUuid; }

        public Builder kernel(Version v) { kernel = v; return this; }
        public Builder ioUringDisabled(Integer v) { ioUringDisabled = v; return this; }
        public Builder qemu(Version v) { qemu = v; return this; }
        public Builder qemuIoUring(Boolean works, String whyNot) { qemuIoUring = works; qemuIoUringReason = whyNot; return this; }
        public Builder qemuNative(Boolean works, String whyNot) { qemuNative = works; qemuNativeReason = whyNot; return this; }
        public Builder libvirt(Version v) { libvirt = v; return this; }
        public Builder agent(String name) { agent = name; return this; }
        /** A named fact (null value: not gathered, left out). */
        public Builder probe(String name, String value) { if (value != null) probes.put(name, value); return this; }
        public Builder storage(StorageIoFacts s) { storages.add(s); return this; }
        /** One fact that could not be gathered, as a sentence saying which and why. */
        public Builder unknown(String sentence) { unknown.add(sentence); return this; }
        public Builder raw(String output, String failure) { probeOutput = output; probeFailure = failure; return this; }
        public Builder probedAt(String isoDate) { probedAt = isoDate; return this; }
        public HostIoFacts build() { return new HostIoFacts(this); }
    }
}
