package org.zstack.aio.plugin;

import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.WorkloadProfile;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A platform in memory, counting what the use case asks it. */
final class FakePorts implements IoModePorts {
    final Map<String, VolumeIoFacts> volumes = new LinkedHashMap<>();
    final Map<String, Map<IoModeConfig, String>> overrides = new HashMap<>();
    final Map<IoModeConfig, String> globals = new HashMap<>();
    final Map<String, HostIoFacts> hosts = new HashMap<>();
    final Map<String, AgentProfile> agents = new HashMap<>();
    final Map<String, ModePerformance> benchmarks = new HashMap<>();
    final Map<String, WorkloadProfile> workloads = new HashMap<>();
    final Map<String, DecisionRecord> stored = new HashMap<>();
    final List<String> asked = new ArrayList<>();

    FakePorts volume(VolumeIoFacts v) { volumes.put(v.volumeUuid(), v); return this; }

    FakePorts override(String uuid, IoModeConfig c, String value) {
        overrides.computeIfAbsent(uuid, k -> new HashMap<>()).put(c, value);
        return this;
    }

    FakePorts host(HostIoFacts h, AgentProfile agent) {
        hosts.put(h.getHostUuid(), h);
        agents.put(h.getHostUuid(), agent);
        return this;
    }

    long count(String what) { return asked.stream().filter(what::equals).count(); }

    @Override
    public Map<String, VolumeIoFacts> volumes(List<String> uuids) {
        asked.add("volumes");
        Map<String, VolumeIoFacts> out = new HashMap<>();
        for (String u : uuids) if (volumes.containsKey(u)) out.put(u, volumes.get(u));
        return out;
    }

    @Override
    public ConfigValues configs(Collection<VolumeIoFacts> vols) {
        asked.add("configs");
        return new ConfigValues() {
            public String override(String uuid, IoModeConfig c) {
                Map<IoModeConfig, String> m = overrides.get(uuid);
                return m == null ? null : m.get(c);
            }
            public String global(IoModeConfig c) { return globals.getOrDefault(c, c.defaultValue()); }
            public String globalDefault(IoModeConfig c) { return c.defaultValue(); }
        };
    }

    @Override
    public HostIoFacts host(String hostUuid) {
        asked.add("host");
        return hosts.get(hostUuid);
    }

    @Override
    public AgentProfile agent(HostIoFacts host) {
        asked.add("agent");
        return host == null ? AgentProfile.ZSTACK_STOCK : agents.get(host.getHostUuid());
    }

    @Override
    public Figures figures(String hostUuid, Collection<VolumeIoFacts> vols) {
        asked.add("figures");
        return new Figures() {
            public ModePerformance benchmark(VolumeIoFacts v) { return benchmarks.get(hostUuid + "/" + v.primaryStorageUuid()); }
            public WorkloadProfile workload(String volumeUuid) { return workloads.get(volumeUuid); }
        };
    }

    @Override
    public Map<String, DecisionRecord> stored(Collection<String> uuids) {
        asked.add("stored");
        Map<String, DecisionRecord> out = new HashMap<>();
        for (String u : uuids) if (stored.containsKey(u)) out.put(u, stored.get(u));
        return out;
    }
}
