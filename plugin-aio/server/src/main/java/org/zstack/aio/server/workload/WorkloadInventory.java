package org.zstack.aio.server.workload;

import org.zstack.aio.decision.WorkloadProfile;

import java.time.LocalDateTime;

/**
 * A volume's observed workload as the API shows it (docs/contract.md, "Workload"), on the volume ({@code workload}) and on
 * an auto decision that optimised for it ({@code ioModeDecision.optimizedFor}).
 *
 * @param readFraction   share of requests that read, 0..1
 * @param avgReadBytes   bytes per read request
 * @param avgWriteBytes  bytes per write request
 * @param readIops       read requests per second
 * @param writeIops      write requests per second
 * @param avgQueueDepth  requests in flight on average (Little's law: summed request time / wall time)
 * @param sampledSeconds wall seconds the samples covered
 * @param sampledAt      the last sample
 */
public record WorkloadInventory(double readFraction, double avgReadBytes, double avgWriteBytes, double readIops,
                                double writeIops, double avgQueueDepth, double sampledSeconds, LocalDateTime sampledAt) {

    static WorkloadInventory of(WorkloadProfile p, LocalDateTime at) {
        return new WorkloadInventory(p.readFraction(), p.avgReadBytes(), p.avgWriteBytes(), p.readIops(), p.writeIops(),
                p.avgQueueDepth(), p.sampledSeconds(), at);
    }

    /** A decision's profile back as the API's shape ({@code sampledAt} as the profile carried it). */
    public static WorkloadInventory of(WorkloadProfile p) {
        LocalDateTime at;
        try {
            at = p.sampledAt() == null ? null : LocalDateTime.parse(p.sampledAt());
        } catch (java.time.format.DateTimeParseException e) {
            at = null; // a profile from elsewhere than VolumeWorkloadVO: the figures still hold
        }
        return of(p, at);
    }

    public WorkloadProfile profile() {
        return new WorkloadProfile(readFraction, avgReadBytes, avgWriteBytes, readIops, writeIops, avgQueueDepth,
                sampledSeconds, sampledAt == null ? null : sampledAt.toString());
    }
}
