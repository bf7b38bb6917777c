package org.zstack.aio.zstack;

import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.core.config.GlobalConfig;
import org.zstack.core.config.GlobalConfigDefinition;
import org.zstack.core.config.GlobalConfigValidation;
import org.zstack.header.storage.primary.PrimaryStorageVO;
import org.zstack.header.volume.VolumeVO;
import org.zstack.resourceconfig.BindResourceConfig;

/**
 * The io-mode configs as ZStack declares configs: these fields, and globalConfig/aioIoMode.xml generated from
 * {@link IoModeConfig}, the one declaration of both platforms. ZStack reads bindings only from
 * {@code @BindResourceConfig}, so they are written here too, the same as the table's:
 * {@code ConfigTableAgreementTest} (root build) and {@link ConfigDeclarations} (at boot) fail when they differ.
 */
@GlobalConfigDefinition
public class AioIoModeGlobalConfig {
    public static final String CATEGORY = IoModeConfig.CATEGORY;

    @GlobalConfigValidation
    @BindResourceConfig({VolumeVO.class, PrimaryStorageVO.class})
    public static GlobalConfig IO_MODE = new GlobalConfig(CATEGORY, "vm.ioMode");

    @GlobalConfigValidation
    public static GlobalConfig ON_UNSATISFIED = new GlobalConfig(CATEGORY, "vm.ioMode.onUnsatisfied");

    @GlobalConfigValidation
    @BindResourceConfig({PrimaryStorageVO.class})
    public static GlobalConfig ALLOW_FALLOC = new GlobalConfig(CATEGORY, "vm.ioMode.native.allowFalloc");

    /** 0 (never) to 8760 hours: the benchmark schedule ({@link BenchmarkSchedule}) */
    @GlobalConfigValidation(inNumberRange = {0, 8760})
    public static GlobalConfig BENCHMARK_INTERVAL_HOURS = new GlobalConfig(CATEGORY, "vm.ioMode.benchmark.intervalHours");

    /** 0 (off) or 10-86400 s: the gap 1-9 is refused by {@link AioWorkloadSampler}'s validator */
    @GlobalConfigValidation(inNumberRange = {0, 86400})
    public static GlobalConfig WORKLOAD_SAMPLE_INTERVAL = new GlobalConfig(CATEGORY, "vm.ioMode.workload.sampleInterval");

    /** The ZStack config of one of the table's configs. */
    public static GlobalConfig of(IoModeConfig config) {
        if (config == IoModeConfig.IO_MODE) return IO_MODE;
        if (config == IoModeConfig.ON_UNSATISFIED) return ON_UNSATISFIED;
        if (config == IoModeConfig.ALLOW_FALLOC) return ALLOW_FALLOC;
        if (config == IoModeConfig.BENCHMARK_INTERVAL_HOURS) return BENCHMARK_INTERVAL_HOURS;
        if (config == IoModeConfig.WORKLOAD_SAMPLE_INTERVAL) return WORKLOAD_SAMPLE_INTERVAL;
        throw new IllegalArgumentException("no ZStack global config for " + config);
    }
}
