package org.zstack.aio.plugin;

import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecision;

/**
 * plugin-aio's own agent: it sets every mode at start and at hot-plug, steps a disk down its candidates when
 * libvirt/QEMU refuse a mode, and a live migration gives each disk the destination's decision.
 */
final class StandaloneAgent extends AgentProfile {

    StandaloneAgent() {
        super("plugin-aio's agent");
    }

    @Override
    public boolean canSetAtHotPlug(IoMode mode) {
        return true;
    }

    /** Only a decision refused on the destination (onUnsatisfied = fail) keeps the disk where it is. */
    @Override
    String migrationBlocker(MigratingDisk disk) {
        IoModeDecision there = disk.onDestination();
        if (!there.refused()) return null;
        Check failed = there.firstFailure();
        return "volume " + disk.volumeName() + " cannot run " + there.requested().wire() + " on " + disk.hostName()
               + ": check " + failed.check() + " failed: " + failed.message();
    }
}
