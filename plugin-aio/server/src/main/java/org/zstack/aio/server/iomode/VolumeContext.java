package org.zstack.aio.server.iomode;

import org.zstack.aio.server.config.LocatedResource;
import org.zstack.aio.server.config.ResourceRef;
import org.zstack.aio.server.inventory.PrimaryStorageVO;
import org.zstack.aio.server.inventory.VolumeVO;

import java.util.List;

/** A volume with its primary storage: what config resolution and the decision need from the inventory. */
public record VolumeContext(VolumeVO volume, PrimaryStorageVO storage) {

    public List<ResourceRef> configChain() {
        return List.of(new ResourceRef(volume.getUuid(), LocatedResource.VOLUME),
                new ResourceRef(storage.getUuid(), LocatedResource.PRIMARY_STORAGE));
    }
}
