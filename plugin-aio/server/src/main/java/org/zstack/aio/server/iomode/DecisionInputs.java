package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Component;
import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.IoModeSettings;
import org.zstack.aio.server.benchmark.MeasuredPerformance;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.config.ResourceRef;
import org.zstack.aio.server.inventory.VolumeVO;

import java.util.List;

/**
 * Builds the decision's input for a volume from what was read: its row and storage, the config snapshot (folded by the
 * core's {@link IoModeSettings}: volume → primary storage → global, the storage kind's default from the rules standing in
 * for the global default as kvm.yaml declares it), the host's facts and the host × storage measurements. No I/O.
 */
@Component
public class DecisionInputs {

    private final IoModeConfigs configs;
    private final IoModeRules rules;

    public DecisionInputs(IoModeConfigs configs, IoModeDecider decider) {
        this.configs = configs;
        this.rules = decider.rules();
    }

    /**
     * The input for one volume; {@code cacheOverride} (null: none) replaces the resolved cache mode, to judge a cache
     * mode before it is set. Measurements count only with a host (they are the host's).
     */
    public DecisionInput input(VolumeContext v, ConfigSnapshot snap, HostFacts host, String cacheOverride,
                               MeasuredPerformance measured) {
        var chain = v.configChain();
        IoModeSettings settings = IoModeSettings.resolve(new IoModeSettings.Values() {
            @Override
            public String override(ConfigSource level, IoModeConfig config) {
                ResourceRef r = ConfigSnapshot.ofType(chain, level.wire());
                return r == null ? null : snap.override(r.uuid(), config.name());
            }

            @Override
            public String global(IoModeConfig config) {
                return snap.global(configs.of(config));
            }

            @Override
            public String globalDefault(IoModeConfig config) {
                return configs.of(config).defaultValue();
            }
        }, rules, v.storage().getType());
        String cache = cacheOverride != null ? cacheOverride : snap.resolve(configs.cacheMode(), chain).value();
        VolumeVO vol = v.volume();
        VolumeFacts facts = new VolumeFacts(vol.getUuid(), v.storage().getType(), vol.getFormat(), vol.getPreallocation(),
                vol.getSize(), vol.getActualSize(), cache);
        DecisionInput in = new DecisionInput(settings.requested(), settings.source(), facts, host, settings.policy());
        if (measured == null || host == null) return in;
        // the workload only weighs the host's benchmark, so it goes with the measurements
        return in.withPerformance(measured.forVolume(v.storage().getUuid(), vol.getFormat(), vol.getPreallocation()))
                .withWorkload(v.workloadProfile());
    }

    /** The volume's resolved kvm/vm.cacheMode. */
    public String cacheMode(VolumeContext v, ConfigSnapshot snap) {
        return snap.resolve(configs.cacheMode(), v.configChain()).value();
    }

    /** The config rows a snapshot for these volumes must hold: each volume's and each primary storage's. */
    public static List<String> configOwners(List<VolumeContext> volumes) {
        return volumes.stream().flatMap(v -> v.configChain().stream().map(r -> r.uuid())).distinct().toList();
    }
}
