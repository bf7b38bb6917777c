package org.zstack.aio.server.iomode;

import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Operation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The disks of one VM start or hot-plug ({@link DiskPlanner}): what the agent is sent, and, once it answered, the
 * decisions as they stand after it, stored inside the operation's last transaction.
 */
public final class DiskPlan {

    private final String vmUuid;
    private final Operation operation;
    private final List<Decided> decided;
    private final List<DiskTO> disks;
    private final DiskIoPolicy policy;

    /** @param deviceId the hot-plugged disk's device id; null: a start, each disk at its place in the list */
    DiskPlan(String vmUuid, List<Decided> decided, DiskIoPolicy policy, Integer deviceId) {
        this.vmUuid = vmUuid;
        this.operation = deviceId == null ? Operation.START : Operation.ATTACH;
        this.decided = decided;
        this.policy = policy;
        this.disks = new ArrayList<>(decided.size());
        for (int i = 0; i < decided.size(); i++) disks.add(policy.disk(decided.get(i), deviceId == null ? i : deviceId));
    }

    /** What the agent receives, one disk per decided volume, in order. */
    public List<DiskTO> disks() {
        return disks;
    }

    /**
     * Folds what the agent applied per disk (null: it said nothing) into each decision, so a refusal at start is
     * recorded with its error, and stores the decisions; call it in the operation's transaction. Returns them as the
     * API shows them.
     */
    public List<DecisionRecord> record(List<DiskResult> answered) {
        Map<String, DiskResult> applied = new HashMap<>();
        if (answered != null) answered.forEach(r -> applied.put(r.volumeUuid(), r));
        return record(applied);
    }

    /** The hot-plugged disk's answer, by the volume plugged (whatever uuid the agent echoed). */
    public DecisionRecord recordPlugged(DiskResult answered) {
        List<DecisionRecord> stored = record(Map.of(decided.get(0).volumeUuid(), answered));
        return stored.isEmpty() ? null : stored.get(0);
    }

    private List<DecisionRecord> record(Map<String, DiskResult> applied) {
        List<Decided> recorded = decided.stream().map(d -> AppliedDecisions.apply(d, applied.get(d.volumeUuid()))).toList();
        return policy.record(vmUuid, operation, recorded, applied);
    }
}
