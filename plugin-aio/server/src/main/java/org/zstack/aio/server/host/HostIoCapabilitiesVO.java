package org.zstack.aio.server.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.zstack.aio.agent.api.HostFactsRsp;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.Version;

import java.time.LocalDateTime;
import java.util.Map;
import java.util.TreeMap;

/** A host's probed io capabilities (from its agent), refreshed on every connect. */
@Entity
@Table(name = "HostIoCapabilitiesVO")
public class HostIoCapabilitiesVO {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<Map<String, String>> PROBES = new TypeReference<>() {
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

    /** The facts the decision reads. */
    public HostFacts toFacts() {
        return new HostFacts(hostUuid, Version.parseOrNull(kernelVersion), ioUringDisabled,
                Version.parseOrNull(qemuVersion), qemuIoUring, Version.parseOrNull(libvirtVersion), probes());
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
