package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Component;
import org.zstack.aio.decision.ModePerformance;
import org.zstack.aio.decision.WorkloadProfile;
import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.Figures;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.VolumeIoFacts;
import org.zstack.aio.server.benchmark.MeasuredPerformance;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.inventory.VolumeVO;

import java.util.List;
import java.util.function.Function;

/**
 * This server's rows in the core's terms, with no I/O: a volume and its storage as {@link VolumeIoFacts} (its cache
 * mode resolved from the config snapshot), a snapshot as the core's {@link ConfigValues}, a host's stored benchmarks
 * and the volumes' observed workloads as {@link Figures}. The core folds the configs and decides; nothing here does.
 */
@Component
public class CoreFacts {

    private final IoModeConfigs configs;

    public CoreFacts(IoModeConfigs configs) {
        this.configs = configs;
    }

    /** The volume as the core reads it, its kvm/vm.cacheMode resolved from {@code snap} (volume → storage → global). */
    public VolumeIoFacts volume(VolumeContext v, ConfigSnapshot snap) {
        VolumeVO vol = v.volume();
        return VolumeIoFacts.builder(vol.getUuid()).name(vol.getName()).storage(v.storage().getUuid(), v.storage().getType())
                .image(vol.getFormat(), vol.getPreallocation()).sizes(vol.getSize(), vol.getActualSize())
                .cacheMode(cacheMode(v, snap)).build();
    }

    /** The volume's resolved kvm/vm.cacheMode (this platform's own config: the core takes it as a fact). */
    public String cacheMode(VolumeContext v, ConfigSnapshot snap) {
        return snap.resolve(configs.cacheMode(), v.configChain()).value();
    }

    /** The snapshot's values of the core's configs; their defaults as kvm.yaml declares them. */
    public ConfigValues configs(ConfigSnapshot snap) {
        return new ConfigValues() {
            @Override
            public String override(String resourceUuid, IoModeConfig config) {
                return snap.override(resourceUuid, config.name());
            }

            @Override
            public String global(IoModeConfig config) {
                return snap.global(configs.of(config));
            }

            @Override
            public String globalDefault(IoModeConfig config) {
                return configs.of(config).defaultValue();
            }
        };
    }

    /** The config rows a snapshot for these volumes must hold: each volume's and each primary storage's. */
    public static List<String> configOwners(List<VolumeContext> volumes) {
        return volumes.stream().flatMap(v -> v.configChain().stream().map(r -> r.uuid())).distinct().toList();
    }

    /** One host's benchmarks ({@code null}: none) with the volumes' workloads, by volume uuid. */
    public static Figures figures(MeasuredPerformance measured, Function<String, WorkloadProfile> workloads) {
        if (measured == null || measured == MeasuredPerformance.NONE) return Figures.NONE;
        return new Figures() {
            @Override
            public ModePerformance benchmark(VolumeIoFacts v) {
                return measured.forVolume(v.primaryStorageUuid(), v.format(), v.preallocation());
            }

            @Override
            public WorkloadProfile workload(String volumeUuid) {
                return workloads.apply(volumeUuid);
            }
        };
    }
}
