package org.zstack.aio.server.volume;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.LocalDateTime;

/** A disk as its running domain has it (read back from the live XML by the tracker), since when it has it. */
@Entity
@Table(name = "VolumeRunningVO")
public class VolumeRunningVO {
    @Id
    private String volumeUuid;
    private String vmInstanceUuid;
    private String hostUuid;
    private String io;
    private String cache;
    private LocalDateTime since;

    protected VolumeRunningVO() {
    }

    public VolumeRunningVO(String volumeUuid, String vmInstanceUuid, String hostUuid, String io, String cache,
                           LocalDateTime since) {
        this.volumeUuid = volumeUuid;
        this.vmInstanceUuid = vmInstanceUuid;
        this.hostUuid = hostUuid;
        this.io = io;
        this.cache = cache;
        this.since = since;
    }

    public String getVolumeUuid() { return volumeUuid; }
    public String getVmInstanceUuid() { return vmInstanceUuid; }
    public String getHostUuid() { return hostUuid; }
    public String getIo() { return io; }
    public String getCache() { return cache; }
    public LocalDateTime getSince() { return since; }

    /** Whether the live disk still has exactly this: then {@code since} stays. */
    public boolean sameAs(String vmUuid, String host, String liveIo, String liveCache) {
        return java.util.Objects.equals(vmInstanceUuid, vmUuid) && java.util.Objects.equals(hostUuid, host)
               && java.util.Objects.equals(io, liveIo) && java.util.Objects.equals(cache, liveCache);
    }
}
