package org.zstack.aio.zstack;

import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.RequestedIoMode;

/** One volume's io-mode configs after resolution: the requested mode, the level it came from, and the policy. */
final class ResolvedIoModeConfig {
    final RequestedIoMode requested;
    final ConfigSource source;
    final DecisionPolicy policy;

    ResolvedIoModeConfig(RequestedIoMode requested, ConfigSource source, DecisionPolicy policy) {
        this.requested = requested;
        this.source = source;
        this.policy = policy;
    }
}
