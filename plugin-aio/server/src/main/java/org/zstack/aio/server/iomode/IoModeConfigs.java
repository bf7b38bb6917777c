package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Component;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.server.config.ConfigDefinitions;
import org.zstack.aio.server.config.GlobalConfigDefinition;

import java.util.ArrayList;
import java.util.List;

/**
 * The configs the io-mode feature reads. plugin-aio-core's {@link IoModeConfig} is their one declaration for both
 * platforms; conf/globalConfig/kvm.yaml says the same for this server (ConfigTableAgreementTest), and this class stops
 * the boot when the definitions it finds there differ (a kvm.yaml edited on a deployed server).
 */
@Component
public class IoModeConfigs {

    private final GlobalConfigDefinition ioMode;
    private final GlobalConfigDefinition onUnsatisfied;
    private final GlobalConfigDefinition allowFalloc;
    private final GlobalConfigDefinition cacheMode;

    public IoModeConfigs(ConfigDefinitions definitions) {
        this.ioMode = require(definitions, IoModeConfig.IO_MODE);
        this.onUnsatisfied = require(definitions, IoModeConfig.ON_UNSATISFIED);
        this.allowFalloc = require(definitions, IoModeConfig.ALLOW_FALLOC);
        this.cacheMode = definitions.require(IoModeConfig.CATEGORY, "vm.cacheMode");
    }

    private static GlobalConfigDefinition require(ConfigDefinitions definitions, IoModeConfig c) {
        GlobalConfigDefinition def = definitions.require(c.category(), c.name());
        List<String> differences = new ArrayList<>();
        if (!def.type().equals(c.type().yamlName())) differences.add("type " + def.type() + " (core: " + c.type().yamlName() + ")");
        if (!def.defaultValue().equals(c.defaultValue())) differences.add("default " + def.defaultValue() + " (core: " + c.defaultValue() + ")");
        if (!def.validValues().equals(c.validValues())) differences.add("valid values " + def.validValues() + " (core: " + c.validValues() + ")");
        if (!def.bindResourceTypes().equals(c.bindingTypes())) {
            differences.add("bindings " + def.bindResourceTypes() + " (core: " + c.bindingTypes() + ")");
        }
        if (!differences.isEmpty()) {
            throw new IllegalStateException("conf/globalConfig declares " + def.identity() + " with " + String.join(", ", differences)
                                            + ", but the io-mode feature is built for the core's declaration");
        }
        return def;
    }

    /** The category all of them are in. */
    public String category() { return IoModeConfig.CATEGORY; }

    /** kvm/vm.ioMode: threads, native, io_uring or auto. */
    public GlobalConfigDefinition ioMode() { return ioMode; }

    /** kvm/vm.ioMode.onUnsatisfied: fallback or fail. */
    public GlobalConfigDefinition onUnsatisfied() { return onUnsatisfied; }

    /** kvm/vm.ioMode.native.allowFalloc. */
    public GlobalConfigDefinition allowFalloc() { return allowFalloc; }

    /** kvm/vm.cacheMode (this platform's own: ZStack has its own with other values and bindings). */
    public GlobalConfigDefinition cacheMode() { return cacheMode; }

    /** The definition of one of the core's configs. */
    GlobalConfigDefinition of(IoModeConfig c) {
        if (c == IoModeConfig.IO_MODE) return ioMode;
        if (c == IoModeConfig.ON_UNSATISFIED) return onUnsatisfied;
        if (c == IoModeConfig.ALLOW_FALLOC) return allowFalloc;
        throw new IllegalArgumentException("not an io-mode config: " + c);
    }
}
