package org.zstack.aio.server.archcheck.decides;

import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;

/** Test-only: a class that decides around the core, which {@code ServerArchitectureTest}'s rule must report. */
public class DecidesItself {
    IoModeDecision decide(IoModeDecider decider, DecisionInput in) {
        return decider.decide(in);
    }
}
