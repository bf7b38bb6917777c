package org.zstack.aio.server.iomode;

import org.zstack.aio.server.config.LocatedResource;
import org.zstack.aio.server.config.ResourceRef;
import org.zstack.aio.server.inventory.PrimaryStorageVO;
import org.zstack.aio.server.inventory.VolumeVO;

import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.server.workload.VolumeWorkloadVO;

import java.util.List;

/**
 * A volume with its primary storage and its observed workload (null: never sampled): what config resolution and the
 * decision need from the inventory, read in one query; for a VM's disks also the digest of the volume's stored decision
 * (null: none stored, or not read), so that recording an unchanged decision needs no query of its own.
 */
public record VolumeContext(VolumeVO volume, PrimaryStorageVO storage, VolumeWorkloadVO workload, StoredDigest storedDecision) {

    public VolumeContext(VolumeVO volume, PrimaryStorageVO storage) {
        this(volume, storage, null, null);
    }

    public VolumeContext(VolumeVO volume, PrimaryStorageVO storage, VolumeWorkloadVO workload) {
        this(volume, storage, workload, null);
    }

    /** The observed workload for the decision, null when none was observed. */
    public WorkloadProfile workloadProfile() {
        return workload == null ? null : workload.profile();
    }

    public List<ResourceRef> configChain() {
        return List.of(new ResourceRef(volume.getUuid(), LocatedResource.VOLUME),
                new ResourceRef(storage.getUuid(), LocatedResource.PRIMARY_STORAGE));
    }
}
