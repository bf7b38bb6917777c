package org.zstack.aio.decision;

import java.util.Objects;

/**
 * Everything one decision needs: the requested mode and where it came from, the volume's facts, the facts
 * of the host that will run it (null when unknown), the policy, and optionally the measured performance of each
 * mode for this volume's image kind on this host × primary storage (null when never measured).
 */
public record DecisionInput(RequestedIoMode requested, ConfigSource source, VolumeFacts volume, HostFacts host,
                            DecisionPolicy policy, ModePerformance performance) {

    /** Without measurements: {@code auto} keeps the static preference order. */
    public DecisionInput(RequestedIoMode requested, ConfigSource source, VolumeFacts volume, HostFacts host,
                         DecisionPolicy policy) {
        this(requested, source, volume, host, policy, null);
    }

    /** The same input with these measurements (null: none). */
    public DecisionInput withPerformance(ModePerformance p) {
        return new DecisionInput(requested, source, volume, host, policy, p);
    }

    public DecisionInput {
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(volume, "volume");
        Objects.requireNonNull(policy, "policy");
    }
}
