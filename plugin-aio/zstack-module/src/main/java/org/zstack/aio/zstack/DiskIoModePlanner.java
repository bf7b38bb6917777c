package org.zstack.aio.zstack;

import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.plugin.IoModeSettings;
import org.zstack.header.volume.VolumeInventory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Gathers ZStack's facts and configs for the disks of one VM on one host and asks the decision core about each. */
final class DiskIoModePlanner {

    private final IoModeDecider decider;
    private final IoModeConfigResolver configs;
    private final VolumeFactsReader facts;

    DiskIoModePlanner(IoModeDecider decider, IoModeConfigResolver configs, VolumeFactsReader facts) {
        this.decider = decider;
        this.configs = configs;
        this.facts = facts;
    }

    /** One disk's decision with the settings it was made under (the attach needs the policy). */
    static final class Planned {
        final IoModeDecision decision;
        final IoModeSettings settings;

        Planned(IoModeDecision decision, IoModeSettings settings) {
            this.decision = decision;
            this.settings = settings;
        }
    }

    /**
     * @param cacheModes volume uuid -> the cache mode ZStack resolved for it
     * @return one decision per volume, in the order given
     */
    List<Planned> decide(List<VolumeInventory> volumes, Map<String, String> cacheModes, String hostUuid) {
        Map<String, VolumeFacts> volumeFacts = facts.volumes(volumes, cacheModes);
        Map<String, IoModeSettings> resolved = configs.resolve(volumes, volumeFacts);
        HostFacts host = facts.host(hostUuid);
        List<Planned> out = new ArrayList<>(volumes.size());
        for (VolumeInventory v : volumes) {
            IoModeSettings s = resolved.get(v.getUuid());
            out.add(new Planned(decider.decide(new DecisionInput(s.requested(), s.source(), volumeFacts.get(v.getUuid()),
                    host, s.policy())), s));
        }
        return out;
    }
}
