package org.zstack.aio.decision;

import java.util.Objects;

/**
 * Everything one decision needs: the requested mode and where it came from, the volume's facts, the facts
 * of the host that will run it (null when unknown), and the policy.
 */
public record DecisionInput(RequestedIoMode requested, ConfigSource source, VolumeFacts volume, HostFacts host,
                            DecisionPolicy policy) {

    public DecisionInput {
        Objects.requireNonNull(requested, "requested");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(volume, "volume");
        Objects.requireNonNull(policy, "policy");
    }
}
