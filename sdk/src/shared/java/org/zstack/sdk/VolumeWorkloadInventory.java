package org.zstack.sdk;

/**
 * A volume's observed workload (docs/contract.md, "Workload"), from its running disk's block counters: time-decayed
 * averages, the older samples counting less.
 */
public class VolumeWorkloadInventory {
    /** Share of requests that read, 0..1. */
    public Double readFraction;

    public Double avgReadBytes;

    public Double avgWriteBytes;

    public Double readIops;

    public Double writeIops;

    /** Requests in flight on average (Little's law: summed request time / wall time). */
    public Double avgQueueDepth;

    /** Wall seconds the samples covered. */
    public Double sampledSeconds;

    /** ISO-8601 with zone, as every date the API returns. */
    public String sampledAt;
}
