package org.zstack.aio.server.workload;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.workload.WorkloadFold;
import org.zstack.aio.plugin.workload.WorkloadFold.Counters;
import org.zstack.aio.plugin.workload.WorkloadFold.Origin;
import org.zstack.aio.plugin.workload.WorkloadFold.State;
import org.zstack.aio.plugin.workload.WorkloadFold.Sums;

import java.time.LocalDateTime;

/**
 * One volume's observed workload: ONE row per volume (not a time series), holding the last raw counters (the
 * baseline of the next delta, with the QEMU they came from) and the decayed sums ({@link WorkloadFold}).
 */
@Entity
@Table(name = "VolumeWorkloadVO")
public class VolumeWorkloadVO {
    @Id
    private String volumeUuid;
    private String hostUuid;
    private long domainId;
    private long rdReqs;
    private long rdBytes;
    private long rdTimesNs;
    private long wrReqs;
    private long wrBytes;
    private long wrTimesNs;
    private long lastAtMillis;
    @Column(name = "sumRdReqs") private double sumRdReqs;
    @Column(name = "sumRdBytes") private double sumRdBytes;
    @Column(name = "sumRdSeconds") private double sumRdSeconds;
    @Column(name = "sumWrReqs") private double sumWrReqs;
    @Column(name = "sumWrBytes") private double sumWrBytes;
    @Column(name = "sumWrSeconds") private double sumWrSeconds;
    @Column(name = "sumSeconds") private double sumSeconds;
    private double sampledSeconds;
    private LocalDateTime sampledAt;

    protected VolumeWorkloadVO() {
    }

    public VolumeWorkloadVO(String volumeUuid) {
        this.volumeUuid = volumeUuid;
    }

    public String getVolumeUuid() { return volumeUuid; }

    public LocalDateTime getSampledAt() { return sampledAt; }

    /** The state the next sample continues from; null before the first. */
    public State state() {
        if (sampledAt == null) return null;
        return new State(new Counters(rdReqs, rdBytes, rdTimesNs, wrReqs, wrBytes, wrTimesNs), new Origin(hostUuid, domainId),
                lastAtMillis, sums());
    }

    private Sums sums() {
        return new Sums(sumRdReqs, sumRdBytes, sumRdSeconds, sumWrReqs, sumWrBytes, sumWrSeconds, sumSeconds, sampledSeconds);
    }

    void set(State s, LocalDateTime at) {
        Counters c = s.last();
        hostUuid = s.origin().hostUuid();
        domainId = s.origin().domainId();
        rdReqs = c.rdReqs();
        rdBytes = c.rdBytes();
        rdTimesNs = c.rdTimesNs();
        wrReqs = c.wrReqs();
        wrBytes = c.wrBytes();
        wrTimesNs = c.wrTimesNs();
        lastAtMillis = s.atMillis();
        Sums m = s.sums();
        sumRdReqs = m.rdReqs();
        sumRdBytes = m.rdBytes();
        sumRdSeconds = m.rdSeconds();
        sumWrReqs = m.wrReqs();
        sumWrBytes = m.wrBytes();
        sumWrSeconds = m.wrSeconds();
        sumSeconds = m.seconds();
        sampledSeconds = m.sampledSeconds();
        sampledAt = at;
    }

    /** The decision's view: null until a request was seen. */
    public WorkloadProfile profile() {
        return sampledAt == null ? null : WorkloadFold.profile(sums(), sampledAt.toString());
    }

    /** The API's view (docs/contract.md, "Workload"): null until a request was seen. */
    public WorkloadInventory inventory() {
        WorkloadProfile p = profile();
        return p == null ? null : WorkloadInventory.of(p, sampledAt);
    }
}
