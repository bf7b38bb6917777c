package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Service;
import org.zstack.aio.plugin.HostRef;
import org.zstack.aio.plugin.Operation;
import org.zstack.aio.server.inventory.HostVO;
import org.zstack.aio.server.iomode.IoModeDecisions.Planned;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The vm package's one way into the io-mode feature: a VM operation asks it once for its disks ({@link DiskPlan},
 * {@link MigrationPlan}) and hands the agent's answer back to that plan, which records it. Deciding (the core, through
 * {@link IoModeDecisions}), what the agent is sent, folding what libvirt/QEMU refused into the decisions and storing
 * them stay here, so a VM operation goes down into this package and never gets called back by it.
 */
@Service
public class DiskPlanner {

    private final IoModeDecisions decisions;
    private final DiskIoPolicy policy;

    public DiskPlanner(IoModeDecisions decisions, DiskIoPolicy policy) {
        this.decisions = decisions;
        this.policy = policy;
    }

    /**
     * The disks of a VM start on {@code host}, device ids in order. A decision refused by policy (onUnsatisfied = fail)
     * is stored and thrown (409, in the core's words) instead.
     */
    public DiskPlan forStart(String vmUuid, HostVO host) {
        Planned planned = decisions.start(vmUuid, ref(host));
        policy.refuseIfRefused(vmUuid, Operation.START, planned);
        return new DiskPlan(vmUuid, planned.decided(), policy, null);
    }

    /** The one disk of a hot-plug of {@code volumeUuid} into a running VM, at {@code deviceId}; refused as a start is. */
    public DiskPlan forAttach(String vmUuid, HostVO host, String volumeUuid, int deviceId) {
        Planned planned = decisions.attach(vmUuid, ref(host), volumeUuid);
        policy.refuseIfRefused(vmUuid, Operation.ATTACH, planned);
        return new DiskPlan(vmUuid, planned.decided(), policy, deviceId);
    }

    /** Every disk of the VM decided for the destination {@code host}; nothing is stored or refused yet. */
    public MigrationPlan forMigration(String vmUuid, HostVO host) {
        return new MigrationPlan(vmUuid, decisions.migrate(vmUuid, List.of(ref(host))).get(host.getUuid()), policy);
    }

    /** A migration's plan for each of these hosts (its candidates), by host uuid, in the queries of one. */
    public Map<String, MigrationPlan> onHosts(String vmUuid, List<HostVO> hosts) {
        Map<String, MigrationPlan> out = new LinkedHashMap<>();
        decisions.migrate(vmUuid, hosts.stream().map(DiskPlanner::ref).toList())
                .forEach((host, planned) -> out.put(host, new MigrationPlan(vmUuid, planned, policy)));
        return out;
    }

    /** Whether a decision refused by policy (onUnsatisfied = fail) stops an operation; with the plugin off, none does. */
    public boolean enforcesRefusals() {
        return policy.enforcesRefusals();
    }

    private static HostRef ref(HostVO h) {
        return new HostRef(h.getUuid(), h.getName());
    }
}
