package org.zstack.aio.plugin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The platform's ports, with refusals not stored yet remembered on one host (the next start decided ahead). */
final class RememberingPorts implements IoModePorts {
    private final IoModePorts ports;
    private final String hostUuid;
    private final List<RefusedIoMode> more;

    RememberingPorts(IoModePorts ports, String hostUuid, List<RefusedIoMode> more) {
        this.ports = ports;
        this.hostUuid = hostUuid;
        this.more = more;
    }

    @Override
    public Map<String, VolumeIoFacts> volumes(List<String> volumeUuids) { return ports.volumes(volumeUuids); }

    @Override
    public ConfigValues configs(Collection<VolumeIoFacts> volumes) { return ports.configs(volumes); }

    @Override
    public HostIoFacts host(String uuid) {
        HostIoFacts h = ports.host(uuid);
        if (!hostUuid.equals(uuid)) return h;
        if (h == null) h = HostIoFacts.unknown(uuid, "the host was never probed");
        List<RefusedIoMode> all = new ArrayList<RefusedIoMode>(h.refused());
        all.addAll(more);
        return h.withRefused(all);
    }

    @Override
    public AgentProfile agent(HostIoFacts host) { return ports.agent(host); }

    @Override
    public Figures figures(String uuid, Collection<VolumeIoFacts> volumes) { return ports.figures(uuid, volumes); }

    @Override
    public Map<String, DecisionRecord> stored(Collection<String> volumeUuids) { return ports.stored(volumeUuids); }
}
