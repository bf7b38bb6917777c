package org.zstack.aio.zstack;

import org.zstack.aio.plugin.AgentProfile;
import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.Figures;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.IoModePorts;
import org.zstack.aio.plugin.VolumeIoFacts;
import org.zstack.aio.plugin.cache.IoFactsCache;
import org.zstack.header.volume.VolumeInventory;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the core's use case ({@link DiskIoModes}) asks ZStack for one operation, read in batches: the operation's
 * volumes come from ZStack's own spec or command (inventories, each VolumeTO's cache mode and device type), their
 * storages' types and config rows in one statement ({@link VolumeFactsReader}); the host's facts, its benchmarks and
 * the volumes' workload profiles from the node's memory ({@link IoFactsCache}, read once after each change), except a
 * migration's candidates, read in one statement for every host the operation names ({@link HostFactsReader}); the
 * stored records from the module's table. One object per operation; not shared between threads.
 */
final class ZStackPorts implements IoModePorts {

    private final List<VolumeInventory> volumes;
    private final Map<String, String> cacheModes;
    private final Map<String, String> deviceTypes;
    private final Set<String> hostsAtOnce;
    /** a migration's candidates are read together, outside the cache */
    private final boolean candidates;
    private final VolumeFactsReader volumeReader;
    private final HostFactsReader hostReader;
    private final IoModeDecisionStore store;
    private final IoFactsCache cache;
    private VolumeFactsReader.Read read;
    private final Map<String, HostFactsReader.Probed> hosts = new HashMap<>();

    ZStackPorts(List<VolumeInventory> volumes, Map<String, String> cacheModes,
                Map<String, String> deviceTypes, Collection<String> hostsAtOnce, VolumeFactsReader volumeReader,
                HostFactsReader hostReader, IoModeDecisionStore store, IoFactsCache cache) {
        this.volumes = volumes;
        this.cacheModes = cacheModes;
        this.deviceTypes = deviceTypes;
        this.hostsAtOnce = new LinkedHashSet<>(hostsAtOnce);
        this.candidates = !hostsAtOnce.isEmpty();
        this.volumeReader = volumeReader;
        this.hostReader = hostReader;
        this.store = store;
        this.cache = cache;
    }

    /** The rows of every volume of the operation, read once: configs() answers from the same read. */
    private VolumeFactsReader.Read read() {
        if (read == null) read = volumeReader.read(volumes);
        return read;
    }

    @Override
    public Map<String, VolumeIoFacts> volumes(List<String> volumeUuids) {
        Map<String, VolumeIoFacts> out = new LinkedHashMap<>();
        for (VolumeInventory v : volumes) {
            if (volumeUuids.contains(v.getUuid())) {
                out.put(v.getUuid(), read().facts(v, cacheModes.get(v.getUuid()), deviceTypes.get(v.getUuid())));
            }
        }
        return out;
    }

    @Override
    public ConfigValues configs(Collection<VolumeIoFacts> volumeFacts) {
        return read();
    }

    @Override
    public HostIoFacts host(String hostUuid) {
        if (!candidates) return cache.host(hostUuid); // a start, a hot-plug, a config set
        if (!hosts.containsKey(hostUuid)) {
            // every host the operation names, in the one statement (a migration's candidates)
            Set<String> ask = new LinkedHashSet<>(hostsAtOnce);
            ask.add(hostUuid);
            hosts.putAll(hostReader.read(ask));
            hostsAtOnce.clear();
        }
        return hosts.get(hostUuid).facts;
    }

    /** The agent the host's last probe found (kvmagent_patch=); an unknown host counts as unpatched. */
    @Override
    public AgentProfile agent(HostIoFacts host) {
        if (host == null) return AgentProfile.ZSTACK_STOCK;
        HostFactsReader.Probed p = hosts.get(host.getHostUuid());
        if (p != null) return p.agent;
        return AgentProfile.ZSTACK_PATCHED.name().equals(host.getAgent()) ? AgentProfile.ZSTACK_PATCHED : AgentProfile.ZSTACK_STOCK;
    }

    @Override
    public Figures figures(String hostUuid, Collection<VolumeIoFacts> volumeFacts) {
        return cache.figures(hostUuid, volumeFacts);
    }

    @Override
    public Map<String, DecisionRecord> stored(Collection<String> volumeUuids) {
        return store.findAll(volumeUuids);
    }
}
