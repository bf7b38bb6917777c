package org.zstack.aio.server.iomode;

import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Operation;

import java.util.List;
import java.util.Map;

/**
 * How a VM start, hot-plug or migration applies the decisions: {@link PluginDiskIo} (the aio plugin,
 * aio.plugin.enabled=true) or {@link LegacyDiskIo} (the previous platform's disks, aio.plugin.enabled=false). One of
 * them is a bean; only {@link DiskPlanner} and its plans use it.
 */
interface DiskIoPolicy {

    /** Throws the core's refusal (after storing the refused decisions) when the plan must not reach the host. */
    void refuseIfRefused(String vmUuid, Operation operation, IoModeDecisions.Planned planned);

    /** The disk the agent receives for a decided volume. */
    DiskTO disk(Decided d, int deviceId);

    /** Whether a decision refused by policy (onUnsatisfied = fail) stops the operation; the previous platform had none. */
    default boolean enforcesRefusals() {
        return true;
    }

    /** Stores what the agent applied; returns the volumes' decisions as the API shows them. */
    List<DecisionRecord> record(String vmUuid, Operation operation, List<Decided> decided, Map<String, DiskResult> applied);
}
