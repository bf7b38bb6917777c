package org.zstack.aio.server.config;

import java.util.ArrayList;
import java.util.List;

/**
 * A resource found by uuid alone, with what config resolution and access checks need.
 *
 * @param ownerAccountUuid the owning account (volumes, VMs), null for admin-only resources
 * @param parentUuid       the next level of config resolution (a volume's primary storage), or null
 */
public record LocatedResource(String type, String uuid, String ownerAccountUuid, String parentUuid) {

    public static final String VOLUME = "VolumeVO";
    public static final String PRIMARY_STORAGE = "PrimaryStorageVO";

    /** The resource and its parents, most specific first. */
    public List<ResourceRef> chain() {
        List<ResourceRef> c = new ArrayList<>(2);
        c.add(new ResourceRef(uuid, type));
        if (VOLUME.equals(type) && parentUuid != null) c.add(new ResourceRef(parentUuid, PRIMARY_STORAGE));
        return c;
    }
}
