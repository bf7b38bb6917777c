package org.zstack.aio.server.iomode;

import org.zstack.aio.plugin.AgentProfile;
import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.DecisionRecord;
import org.zstack.aio.plugin.Figures;
import org.zstack.aio.plugin.HostIoFacts;
import org.zstack.aio.plugin.IoModePorts;
import org.zstack.aio.plugin.VolumeIoFacts;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.iomode.IoModeFactsLoader.HostWithPerformance;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * This server's answers to the core's questions for one operation, over the batched reads of
 * {@link IoModeFactsLoader}: the volumes are read before the request is made (round trip 1: the request lists a VM's
 * disks in device order), their configs once with their facts (round trip 2: a volume's cache mode is a fact here),
 * and every host of the operation at once, with its benchmarks (round trip 3), however many volumes and hosts.
 */
final class ServerIoModePorts implements IoModePorts {

    private final IoModeFactsLoader loader;
    private final CoreFacts core;
    private final IoModeRecords records;
    private final Map<String, VolumeContext> contexts = new LinkedHashMap<>();
    private final Collection<String> hostUuids;
    private ConfigSnapshot snapshot;
    private Map<String, HostWithPerformance> hosts;

    /** @param volumes the operation's volumes as read; @param hostUuids every host the core may ask about */
    ServerIoModePorts(IoModeFactsLoader loader, CoreFacts core, IoModeRecords records, List<VolumeContext> volumes,
                      Collection<String> hostUuids) {
        this.loader = loader;
        this.core = core;
        this.records = records;
        volumes.forEach(v -> contexts.put(v.volume().getUuid(), v));
        this.hostUuids = hostUuids;
    }

    /** The volumes' uuids, in the order read. */
    List<String> volumeUuids() {
        return List.copyOf(contexts.keySet());
    }

    /** The server's context of a volume the core decided. */
    VolumeContext context(String volumeUuid) {
        return contexts.get(volumeUuid);
    }

    @Override
    public Map<String, VolumeIoFacts> volumes(List<String> volumeUuids) {
        Map<String, VolumeIoFacts> out = new LinkedHashMap<>();
        for (String uuid : volumeUuids) {
            VolumeContext v = contexts.get(uuid);
            if (v != null) out.put(uuid, core.volume(v, snapshot()));
        }
        return out;
    }

    @Override
    public ConfigValues configs(Collection<VolumeIoFacts> volumes) {
        return core.configs(snapshot());
    }

    @Override
    public HostIoFacts host(String hostUuid) {
        HostWithPerformance h = hosts().get(hostUuid);
        return h == null ? HostIoFacts.unknown(hostUuid, "the host's agent never reported them") : h.host();
    }

    @Override
    public AgentProfile agent(HostIoFacts host) {
        return AgentProfile.STANDALONE;
    }

    @Override
    public Figures figures(String hostUuid, Collection<VolumeIoFacts> volumes) {
        HostWithPerformance h = hosts().get(hostUuid);
        return h == null ? Figures.NONE : CoreFacts.figures(h.measured(), uuid -> {
            VolumeContext v = contexts.get(uuid);
            return v == null ? null : v.workloadProfile();
        });
    }

    @Override
    public Map<String, DecisionRecord> stored(Collection<String> volumeUuids) {
        return records.stored(volumeUuids);
    }

    private ConfigSnapshot snapshot() {
        if (snapshot == null) snapshot = loader.configs(List.copyOf(contexts.values()));
        return snapshot;
    }

    private Map<String, HostWithPerformance> hosts() {
        if (hosts == null) hosts = loader.hostsWithPerformance(hostUuids, List.copyOf(contexts.values()));
        return hosts;
    }
}
