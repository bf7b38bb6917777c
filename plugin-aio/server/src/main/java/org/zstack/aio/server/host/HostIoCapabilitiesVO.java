package org.zstack.aio.server.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.agent.api.StoragePathFacts;
import org.zstack.aio.decision.Version;
import org.zstack.aio.plugin.AgentProfile;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.StorageIoFacts;
import org.zstack.aio.server.api.ApiDates;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** A host's probed io capabilities (from its agent), refreshed on every connect. */
@Entity
@Table(name = "HostIoCapabilitiesVO")
public class HostIoCapabilitiesVO {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> PROBES = new TypeReference<>() {
    };
    private static final TypeReference<List<StoragePathFacts>> PATHS = new TypeReference<>() {
    };

    @Id
    private String hostUuid;
    private String kernelVersion;
    private Integer ioUringDisabled;
    private String qemuVersion;
    private Boolean qemuIoUring;
    private String qemuIoUringError;
    private Boolean qemuNative;
    private String qemuNativeError;
    private String libvirtVersion;
    private String libvirtUri;
    /** JSON list of StoragePathFacts */
    private String storagePaths;
    /** JSON object of the agent's named probes (HostFacts.probes), which known-bad rules test */
    private String probes;
    private LocalDateTime lastProbeDate;

    protected HostIoCapabilitiesVO() {
    }

    public HostIoCapabilitiesVO(String hostUuid) {
        this.hostUuid = hostUuid;
    }

    public void update(HostFactsRsp f, String storagePathsJson) {
        probes = f.probes() == null || f.probes().isEmpty() ? null : write(f.probes());
        kernelVersion = f.kernelVersion();
        ioUringDisabled = f.ioUringDisabled();
        qemuVersion = f.qemuVersion();
        qemuIoUring = f.qemuIoUring();
        qemuIoUringError = f.qemuIoUringError();
        qemuNative = f.qemuNative();
        qemuNativeError = f.qemuNativeError();
        libvirtVersion = f.libvirtVersion();
        libvirtUri = f.libvirtUri();
        storagePaths = storagePathsJson;
        lastProbeDate = LocalDateTime.now();
    }

    /**
     * The host's facts as the one host-facts contract holds them ({@link HostIoFacts}), each storage path's facts under
     * the primary storage whose url it is ({@code primaryStorageByPath}: {@link StoragePaths#byPath}; a path no storage has
     * any more is left out), with a sentence for each fact the agent did not report.
     */
    public HostIoFacts toIoFacts(Map<String, String> primaryStorageByPath) {
        List<String> unknown = new ArrayList<>();
        HostIoFacts.Builder b = HostIoFacts.builder(hostUuid).kernel(version(kernelVersion, "the kernel version", unknown))
                .ioUringDisabled(ioUringDisabled).qemu(version(qemuVersion, "the QEMU version", unknown))
                .qemuIoUring(qemuIoUring, qemuIoUringError).qemuNative(qemuNative, qemuNativeError)
                .libvirt(version(libvirtVersion, "the libvirt version", unknown)).agent(AgentProfile.STANDALONE.name())
                .probedAt(lastProbeDate == null ? null : ApiDates.format(lastProbeDate));
        unknown.forEach(b::unknown);
        probes().forEach(b::probe);
        for (StoragePathFacts p : storagePathFacts()) {
            String ps = primaryStorageByPath.get(StoragePaths.normalise(p.path()));
            if (ps == null) continue;
            b.storage(new StorageIoFacts(ps, p.path(), p.filesystem(), p.loopBacked(), p.oDirect(), p.oDirect() ? null : p.error()));
            if (p.filesystem() == null) {
                b.unknown("the filesystem of storage path " + p.path() + " is unknown: the agent found no mount above it"
                          + (p.error() == null ? "." : " (" + p.error() + ")."));
            }
        }
        return b.build();
    }

    private static Version version(String text, String what, List<String> unknown) {
        Version v = Version.parseOrNull(text);
        if (v == null) {
            unknown.add(what + " is unknown: " + (text == null ? "the agent reported none" : "the agent reported '" + text
                    + "', not a version") + " at its last probe.");
        }
        return v;
    }

    /** The storage paths' facts as the agent reported them at the last connect; empty when none. */
    public List<StoragePathFacts> storagePathFacts() {
        if (storagePaths == null) return List.of();
        try {
            return JSON.readValue(storagePaths, PATHS);
        } catch (JsonProcessingException e) {
            return List.of(); // a damaged column reads as no path known; the next connect writes it again
        }
    }

    /** The agent's named probes as it reported them at the last connect; empty when none. */
    public Map<String, String> probes() {
        if (probes == null) return Map.of();
        try {
            return JSON.readValue(probes, PROBES);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored probes of host " + hostUuid + " are not valid JSON", e);
        }
    }

    private static String write(Map<String, String> m) {
        try {
            return JSON.writeValueAsString(new TreeMap<>(m));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public String getHostUuid() { return hostUuid; }
    public String getKernelVersion() { return kernelVersion; }
    public Integer getIoUringDisabled() { return ioUringDisabled; }
    public String getQemuVersion() { return qemuVersion; }
    public Boolean getQemuIoUring() { return qemuIoUring; }
    public String getQemuIoUringError() { return qemuIoUringError; }
    public Boolean getQemuNative() { return qemuNative; }
    public String getQemuNativeError() { return qemuNativeError; }
    public String getLibvirtVersion() { return libvirtVersion; }
    public String getLibvirtUri() { return libvirtUri; }
    public String getStoragePaths() { return storagePaths; }
    public LocalDateTime getLastProbeDate() { return lastProbeDate; }

    /** For tests and operators: pretend the sysctl changed (e.g. io_uring switched off) until the next probe. */
    public void setIoUringDisabled(Integer value) { this.ioUringDisabled = value; }
}
