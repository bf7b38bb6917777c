package org.zstack.aio.zstack;

import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.core.config.GlobalConfig;
import org.zstack.core.config.GlobalConfigDefinition;
import org.zstack.core.config.GlobalConfigValidation;

/**
 * The measuring configs as ZStack declares configs (globalConfig/aioIoMode.xml renders them from the core's
 * {@link IoModeConfig#MEASURING}; {@link ConfigDeclarations} checks these fields against it at boot). Global only.
 */
@GlobalConfigDefinition
public class AioMeasureGlobalConfig {
    public static final String CATEGORY = IoModeConfig.CATEGORY;

    /** kvm/vm.ioMode.benchmark.intervalHours: 0 (never) to 8760, as the core declares it. */
    @GlobalConfigValidation(inNumberRange = {0, 8760})
    public static GlobalConfig BENCHMARK_INTERVAL_HOURS = new GlobalConfig(CATEGORY, "vm.ioMode.benchmark.intervalHours");

    /** The ZStack config of one of the core's measuring configs. */
    public static GlobalConfig of(IoModeConfig config) {
        if (config == IoModeConfig.BENCHMARK_INTERVAL_HOURS) return BENCHMARK_INTERVAL_HOURS;
        throw new IllegalArgumentException("no ZStack global config for " + config);
    }
}
