package org.zstack.aio.server.iomode;

import org.zstack.aio.decision.IoModeDecision;

/** A decided volume: its context, its resolved cache mode and the core's decision for it. */
public record Decided(VolumeContext volume, String cacheMode, IoModeDecision decision) {

    public String volumeUuid() {
        return volume.volume().getUuid();
    }

    /** The same volume with the decision as it stands after the operation. */
    public Decided withDecision(IoModeDecision d) {
        return new Decided(volume, cacheMode, d);
    }
}
