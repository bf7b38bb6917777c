package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Component;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.aio.server.config.ConfigDefinitions;
import org.zstack.aio.server.config.GlobalConfigDefinition;

import java.util.List;
import java.util.stream.Stream;

/**
 * The configs the io-mode feature reads. conf/globalConfig/kvm.yaml is their one declaration (names, defaults, valid
 * values, which resources may override them); this class looks each up once at boot, and stops the boot when the
 * declared values of vm.ioMode or vm.ioMode.onUnsatisfied are not the ones the decision knows.
 */
@Component
public class IoModeConfigs {

    private static final String CATEGORY = "kvm";

    private final GlobalConfigDefinition ioMode;
    private final GlobalConfigDefinition onUnsatisfied;
    private final GlobalConfigDefinition allowFalloc;
    private final GlobalConfigDefinition cacheMode;

    public IoModeConfigs(ConfigDefinitions definitions) {
        this.ioMode = definitions.require(CATEGORY, "vm.ioMode");
        this.onUnsatisfied = definitions.require(CATEGORY, "vm.ioMode.onUnsatisfied");
        this.allowFalloc = definitions.require(CATEGORY, "vm.ioMode.native.allowFalloc");
        this.cacheMode = definitions.require(CATEGORY, "vm.cacheMode");
        requireValues(ioMode, Stream.of(RequestedIoMode.values()).map(RequestedIoMode::wire).toList());
        requireValues(onUnsatisfied, Stream.of(OnUnsatisfied.values()).map(OnUnsatisfied::wire).toList());
    }

    private static void requireValues(GlobalConfigDefinition def, List<String> known) {
        if (!def.validValues().equals(known)) {
            throw new IllegalStateException(def.identity() + " declares valid values " + def.validValues()
                                            + " but the decision knows " + known);
        }
    }

    /** The category all of them are in. */
    public String category() { return CATEGORY; }

    /** kvm/vm.ioMode: threads, native, io_uring or auto. */
    public GlobalConfigDefinition ioMode() { return ioMode; }

    /** kvm/vm.ioMode.onUnsatisfied: fallback or fail. */
    public GlobalConfigDefinition onUnsatisfied() { return onUnsatisfied; }

    /** kvm/vm.ioMode.native.allowFalloc. */
    public GlobalConfigDefinition allowFalloc() { return allowFalloc; }

    /** kvm/vm.cacheMode. */
    public GlobalConfigDefinition cacheMode() { return cacheMode; }
}
