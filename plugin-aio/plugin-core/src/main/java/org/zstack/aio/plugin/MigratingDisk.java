package org.zstack.aio.plugin;

import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecision;

/**
 * One disk of a live migration as an agent's migration rule sees it: the disk decided for the destination, what it
 * runs now, and what the destination host can run. The use case ({@link DiskIoModes}) builds it; what it runs now is
 * read from the stored records only when an agent asks (an agent that re-decides every disk never does).
 */
interface MigratingDisk {
    /** e.g. {@code data-1 (uuid)} */
    String volumeName();

    /** e.g. {@code host kvm2 (uuid)} */
    String hostName();

    /** The disk decided for the destination host, as the destination's agent would apply it. */
    IoModeDecision onDestination();

    /** The mode the disk runs now, from its stored record; null: none (network storage) or unknown. */
    IoMode runsNow();

    /** Whether the destination host can run {@code mode} at all (its host-level checks). */
    CheckResult destinationCanRun(IoMode mode);
}
