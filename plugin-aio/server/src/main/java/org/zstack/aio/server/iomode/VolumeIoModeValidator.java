package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Component;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.plugin.ConfigRefusal;
import org.zstack.aio.plugin.VolumeSetRule;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.config.GlobalConfigDefinition;
import org.zstack.aio.server.config.LocatedResource;
import org.zstack.aio.server.config.ResourceConfigValidator;

import java.util.List;

/**
 * The core's set-time rule ({@link VolumeSetRule}, docs/contract.md "The decision" 5) on this server's configs: a
 * volume's own native that its own facts rule out, or a cache mode that would break it, is refused when it is set, in
 * the core's words.
 */
@Component
class VolumeIoModeValidator implements ResourceConfigValidator {

    private final IoModeFactsLoader facts;
    private final DecisionInputs inputs;
    private final IoModeConfigs configs;
    private final VolumeSetRule rule;

    VolumeIoModeValidator(IoModeFactsLoader facts, DecisionInputs inputs, IoModeConfigs configs, IoModeDecider decider) {
        this.facts = facts;
        this.inputs = inputs;
        this.configs = configs;
        this.rule = new VolumeSetRule(decider);
    }

    @Override
    public void validate(LocatedResource resource, GlobalConfigDefinition def, String value) {
        if (!LocatedResource.VOLUME.equals(resource.type())) return;
        boolean settingNative = configs.ioMode().equals(def) && IoMode.NATIVE.wire().equals(value);
        boolean settingCache = configs.cacheMode().equals(def);
        if (!settingNative && !settingCache) return;

        List<VolumeContext> vols = facts.volumes(List.of(resource.uuid()));
        if (vols.isEmpty()) return;
        VolumeContext v = vols.get(0);
        ConfigSnapshot snap = facts.configs(vols);
        DecisionInput current = inputs.input(v, snap, null, null, null);
        String ownIoMode = snap.override(resource.uuid(), configs.ioMode().name());
        ConfigRefusal r = settingNative ? rule.ioMode(value, current.volume(), current.policy())
                : rule.cacheMode(value, ownIoMode, current.volume(), current.policy());
        if (r != null) throw new ApiException(ErrorCode.IO_MODE_RULED_OUT, r.description(), r.whatToDo());
    }
}
