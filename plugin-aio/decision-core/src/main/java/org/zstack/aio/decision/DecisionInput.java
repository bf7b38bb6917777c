package org.zstack.aio.decision;

import java.util.Objects;

/**
 * Everything one decision needs: the requested mode and where it came from, the volume's facts, the facts
 * of the host that will run it (null when unknown), the policy, and optionally the measured performance of each
 * mode for this volume's image kind on this host × primary storage (null when never measured).
 */
public final class DecisionInput {

    private final RequestedIoMode requested;
    private final ConfigSource source;
    private final VolumeFacts volume;
    private final HostFacts host;
    private final DecisionPolicy policy;
    private final ModePerformance performance;
    private final WorkloadProfile workload;

    public DecisionInput(RequestedIoMode requested, ConfigSource source, VolumeFacts volume, HostFacts host,
                         DecisionPolicy policy, ModePerformance performance) {
        this(requested, source, volume, host, policy, performance, null);
    }

    /** @param workload the disk's observed workload (null: never observed); auto weighs the benchmark by it */
    public DecisionInput(RequestedIoMode requested, ConfigSource source, VolumeFacts volume, HostFacts host,
                         DecisionPolicy policy, ModePerformance performance, WorkloadProfile workload) {
        this.workload = workload;
        this.requested = Objects.requireNonNull(requested, "requested");
        this.source = Objects.requireNonNull(source, "source");
        this.volume = Objects.requireNonNull(volume, "volume");
        this.host = host;
        this.policy = Objects.requireNonNull(policy, "policy");
        this.performance = performance;
    }

    /** Without measurements: {@code auto} keeps the static preference order. */
    public DecisionInput(RequestedIoMode requested, ConfigSource source, VolumeFacts volume, HostFacts host,
                         DecisionPolicy policy) {
        this(requested, source, volume, host, policy, null);
    }

    /** The same input with these measurements (null: none). */
    public DecisionInput withPerformance(ModePerformance p) {
        return new DecisionInput(requested, source, volume, host, policy, p, workload);
    }

    /** The same input with this observed workload (null: none). */
    public DecisionInput withWorkload(WorkloadProfile w) {
        return new DecisionInput(requested, source, volume, host, policy, performance, w);
    }

    public WorkloadProfile workload() { return workload; }

    public RequestedIoMode requested() { return requested; }

    public ConfigSource source() { return source; }

    public VolumeFacts volume() { return volume; }

    public HostFacts host() { return host; }

    public DecisionPolicy policy() { return policy; }

    public ModePerformance performance() { return performance; }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DecisionInput)) return false;
        DecisionInput i = (DecisionInput) o;
        return requested == i.requested && source == i.source && volume.equals(i.volume) && Objects.equals(host, i.host)
               && policy.equals(i.policy) && Objects.equals(performance, i.performance)
               && Objects.equals(workload, i.workload);
    }

    @Override
    public int hashCode() { return Objects.hash(requested, source, volume, host, policy, performance, workload); }

    @Override
    public String toString() {
        return "DecisionInput[requested=" + requested + ", source=" + source + ", volume=" + volume + ", host=" + host
               + ", policy=" + policy + ", performance=" + performance + ", workload=" + workload + "]";
    }
}
