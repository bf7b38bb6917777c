package org.zstack.aio.server.iomode;

import org.zstack.aio.plugin.IoModeRefusal;
import org.zstack.aio.plugin.Operation;
import org.zstack.aio.agent.api.DiskResult;
import org.zstack.aio.agent.api.DiskTO;
import org.zstack.aio.agent.api.VmMigrateCmd;
import org.zstack.aio.server.agent.DiskTargetNames;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A VM's disks decided for a migration's destination ({@link DiskPlanner#forMigration}): the driver each disk is
 * migrated with, and, once the source agent answered, the destination's decisions stored with what its libvirtd reports.
 */
public final class MigrationPlan {

    private final String vmUuid;
    private final List<Decided> decided;
    private final IoModeRefusal refusal;
    private final DiskIoPolicy policy;

    MigrationPlan(String vmUuid, IoModeDecisions.Planned planned, DiskIoPolicy policy) {
        this.vmUuid = vmUuid;
        this.decided = planned.decided();
        this.refusal = planned.refusal();
        this.policy = policy;
    }

    /** The decisions, for what would stop the migration (MigrationTargets.blocker). */
    public List<Decided> decided() {
        return decided;
    }

    /** Why this platform's agent cannot take a disk to the destination, in the core's words; null: it can. */
    public IoModeRefusal refusal() {
        return refusal;
    }

    /** Each disk's io and cache on the destination, by install path; a disk without one keeps its driver. */
    public List<VmMigrateCmd.DiskDriverTO> drivers() {
        List<VmMigrateCmd.DiskDriverTO> drivers = new ArrayList<>(decided.size());
        for (Decided d : decided) {
            DiskTO disk = policy.disk(d, 0);
            if (disk.installPath() == null) continue; // nothing to name it by: the domain keeps its driver
            drivers.add(new VmMigrateCmd.DiskDriverTO(disk.installPath(),
                    disk.ioCandidates().isEmpty() ? null : disk.ioCandidates().get(0), disk.cache()));
        }
        return drivers;
    }

    /**
     * Stores the destination's decisions, each noting the move, with what the destination's libvirtd reports per disk
     * ({@code migrated}, by target dev); call it in the migration's last transaction.
     */
    public void record(List<VmMigrateCmd.DiskDriverTO> migrated, String destName, String destUuid, String sourceUuid) {
        String note = "Decided for host " + destName + " (" + destUuid + ") when the VM migrated there from host "
                + sourceUuid + ".";
        policy.record(vmUuid, Operation.MIGRATE, decided.stream().map(d -> d.withDecision(d.decision().withNote(note))).toList(),
                applied(migrated));
    }

    /** What the destination libvirtd reports per disk, by volume (its target dev names the device id). */
    private Map<String, DiskResult> applied(List<VmMigrateCmd.DiskDriverTO> migrated) {
        Map<Integer, String> byDevice = new HashMap<>();
        for (Decided d : decided) {
            Integer id = d.volume().volume().getDeviceId();
            if (id != null) byDevice.put(id, d.volumeUuid());
        }
        Map<String, DiskResult> out = new HashMap<>();
        for (VmMigrateCmd.DiskDriverTO disk : migrated) {
            String volume = byDevice.get(DiskTargetNames.deviceId(disk.disk()));
            if (volume != null) out.put(volume, new DiskResult(volume, disk.io(), disk.cache(), List.of()));
        }
        return out;
    }
}
