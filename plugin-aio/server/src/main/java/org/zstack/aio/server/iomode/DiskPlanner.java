package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Service;
import org.zstack.aio.plugin.Operation;
import org.zstack.aio.server.iomode.IoModeService.Decided;

import java.util.List;
import java.util.Map;

/**
 * The vm package's one way into the io-mode feature: a VM operation asks it once for its disks ({@link DiskPlan},
 * {@link MigrationPlan}) and hands the agent's answer back to that plan, which records it. Deciding, what the agent
 * is sent, folding what libvirt/QEMU refused into the decisions and storing them stay here, so a VM operation goes
 * down into this package and never gets called back by it.
 */
@Service
public class DiskPlanner {

    private final IoModeService ioModes;
    private final DiskIoPolicy policy;

    public DiskPlanner(IoModeService ioModes, DiskIoPolicy policy) {
        this.ioModes = ioModes;
        this.policy = policy;
    }

    /**
     * The disks of a VM start on {@code hostUuid}, device ids in order. A decision refused by policy
     * (onUnsatisfied = fail) is stored and thrown (409) instead.
     */
    public DiskPlan forStart(String vmUuid, String hostUuid) {
        List<Decided> decided = ioModes.decideForVm(vmUuid, hostUuid, List.of());
        policy.refuseIfAnyRefused(vmUuid, Operation.START, decided);
        return new DiskPlan(vmUuid, decided, policy, null);
    }

    /** The one disk of a hot-plug of {@code volumeUuid} into a running VM, at {@code deviceId}; refused as a start is. */
    public DiskPlan forAttach(String vmUuid, String hostUuid, String volumeUuid, int deviceId) {
        List<Decided> disks = ioModes.decideForVm(vmUuid, hostUuid, List.of(volumeUuid));
        List<Decided> plugged = List.of(disks.get(disks.size() - 1));
        policy.refuseIfAnyRefused(vmUuid, Operation.ATTACH, plugged);
        return new DiskPlan(vmUuid, plugged, policy, deviceId);
    }

    /** Every disk of the VM decided for the destination {@code hostUuid}; nothing is stored or refused yet. */
    public MigrationPlan forMigration(String vmUuid, String hostUuid) {
        return new MigrationPlan(vmUuid, ioModes.decideForVm(vmUuid, hostUuid, List.of()), policy);
    }

    /** What each of the VM's disks would get on each of these hosts (a migration's candidates), by host. */
    public Map<String, List<Decided>> onHosts(String vmUuid, List<String> hostUuids) {
        return ioModes.decideForVmOnHosts(vmUuid, hostUuids);
    }

    /** Whether a decision refused by policy (onUnsatisfied = fail) stops an operation; with the plugin off, none does. */
    public boolean enforcesRefusals() {
        return policy.enforcesRefusals();
    }
}
