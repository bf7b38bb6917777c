package org.zstack.aio.plugin;

import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.HostFacts;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.IoModeDecision;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.VolumeFacts;

/**
 * Turns what a platform read about one disk into the decision core's input and asks it: the configs folded for the
 * volume (volume → its primary storage → global, the storage kind's default standing in for the global default), the
 * host's facts of the volume's storage path merged into the volume's (filesystem, loop backing), and the figures. The
 * only place outside the decision core that builds a {@link DecisionInput}.
 */
final class OneDisk {

    private final IoModeDecider decider;

    OneDisk(IoModeDecider decider) {
        this.decider = decider;
    }

    IoModeRules rules() { return decider.rules(); }

    /** The volume's configs, resolved. */
    IoModeSettings settings(final VolumeIoFacts v, final ConfigValues configs) {
        return IoModeSettings.resolve(new IoModeSettings.Values() {
            @Override
            public String override(ConfigSource level, IoModeConfig config) {
                String owner = level == ConfigSource.VOLUME ? v.volumeUuid() : v.primaryStorageUuid();
                return owner == null ? null : configs.override(owner, config);
            }

            @Override
            public String global(IoModeConfig config) { return configs.global(config); }

            @Override
            public String globalDefault(IoModeConfig config) { return configs.globalDefault(config); }
        }, decider.rules(), v.storageType());
    }

    /**
     * The decision for one disk on {@code host} (null: its facts are unknown). Figures count only with a host: a
     * benchmark is the host's, and the workload only weighs the benchmark.
     */
    IoModeDecision decide(VolumeIoFacts v, IoModeSettings s, HostIoFacts host, Figures figures) {
        HostFacts h = host == null ? null : host.decisionFacts();
        DecisionInput in = new DecisionInput(s.requested(), s.source(), volumeFacts(v, host), h, s.policy());
        if (h != null && figures != null) {
            ModePerformance p = figures.benchmark(v);
            if (p != null) in = in.withPerformance(p).withWorkload(figures.workload(v.volumeUuid()));
        }
        return decider.decide(in);
    }

    /** The volume's facts as the decision core reads them, with the host's facts of its storage path. */
    static VolumeFacts volumeFacts(VolumeIoFacts v, HostIoFacts host) {
        StorageIoFacts path = host == null ? null : host.storage(v.primaryStorageUuid());
        return new VolumeFacts(v.volumeUuid(), v.storageType(), v.format(), v.preallocation(), v.virtualSize(),
                v.actualSize(), v.cacheMode(), path == null ? null : path.getFilesystem(),
                path == null ? null : path.getLoopBacked());
    }
}
