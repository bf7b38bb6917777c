package org.zstack.aio.zstack;

import org.zstack.aio.plugin.cache.IoFactsCache;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.kvm.VolumeTO;

import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Makes the ports of one operation ({@link ZStackPorts}) from what ZStack hands the extension point. */
public final class ZStackPortsFactory {

    private final VolumeFactsReader volumes;
    private final HostFactsReader hosts;
    private final IoModeDecisionStore store;
    private final IoFactsCache cache;

    public ZStackPortsFactory(VolumeFactsReader volumes, HostFactsReader hosts, IoModeDecisionStore store, IoFactsCache cache) {
        this.volumes = volumes;
        this.hosts = hosts;
        this.store = store;
        this.cache = cache;
    }

    /** A start or hot-plug: the volumes and the VolumeTOs ZStack built for the agent (cache mode, device type). */
    ZStackPorts forDisks(List<VolumeInventory> inventories, List<VolumeTO> disks) {
        Map<String, String> cacheModes = new HashMap<>();
        Map<String, String> deviceTypes = new HashMap<>();
        for (VolumeTO to : disks) {
            cacheModes.put(to.getVolumeUuid(), to.getCacheMode());
            deviceTypes.put(to.getVolumeUuid(), to.getDeviceType());
        }
        return new ZStackPorts(inventories, cacheModes, deviceTypes, Collections.<String>emptyList(), volumes, hosts, store, cache);
    }

    /** One volume outside any operation (a config being set), with the cache mode ZStack resolves for it. */
    ZStackPorts forVolume(VolumeInventory volume, String cacheMode) {
        return new ZStackPorts(Collections.singletonList(volume), Collections.singletonMap(volume.getUuid(), cacheMode),
                Collections.<String, String>emptyMap(), Collections.<String>emptyList(), volumes, hosts, store, cache);
    }

    /** A running VM's disks and the hosts a migration considers, read together at the first host asked. */
    ZStackPorts forMigration(List<VolumeInventory> inventories, Collection<String> hostUuids) {
        return new ZStackPorts(inventories, Collections.<String, String>emptyMap(), Collections.<String, String>emptyMap(),
                hostUuids, volumes, hosts, store, cache);
    }
}
