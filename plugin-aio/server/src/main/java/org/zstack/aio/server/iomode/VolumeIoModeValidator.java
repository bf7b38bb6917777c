package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Component;
import org.zstack.aio.decision.Check;
import org.zstack.aio.decision.CheckResult;
import org.zstack.aio.decision.DecisionInput;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.server.api.ApiException;
import org.zstack.aio.server.api.ErrorCode;
import org.zstack.aio.server.config.ConfigSnapshot;
import org.zstack.aio.server.config.GlobalConfigDefinition;
import org.zstack.aio.server.config.LocatedResource;
import org.zstack.aio.server.config.ResourceConfigValidator;

import java.util.List;

/**
 * A per-volume native (docs/contract.md, "Refused when set") that the volume's own facts already rule out (cache mode, sparse image on
 * file storage) is refused when it is set, not discovered at start. The same holds the other way round: a
 * cache mode that would break a volume's own native override is refused too.
 */
@Component
class VolumeIoModeValidator implements ResourceConfigValidator {

    private final IoModeFactsLoader facts;
    private final DecisionInputs inputs;
    private final IoModeConfigs configs;
    private final IoModeDecider decider;

    VolumeIoModeValidator(IoModeFactsLoader facts, DecisionInputs inputs, IoModeConfigs configs, IoModeDecider decider) {
        this.facts = facts;
        this.inputs = inputs;
        this.configs = configs;
        this.decider = decider;
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
        if (settingCache && !IoMode.NATIVE.wire().equals(snap.override(resource.uuid(), configs.ioMode().name()))) return;

        DecisionInput current = inputs.input(v, snap, null, settingCache ? value : null, null);
        // host facts are not the volume's own, so they are left out: only cache mode and sparseness are judged here
        CheckResult nativeCheck = decider.check(IoMode.NATIVE, current.volume(), null, current.policy());
        if (nativeCheck.passed()) return;
        Check failed = nativeCheck.firstFailure();
        throw new ApiException(ErrorCode.IO_MODE_RULED_OUT,
                settingNative ? "native cannot be set on volume " + resource.uuid() + ": " + failed.message()
                        : "cache mode " + value + " cannot be set on volume " + resource.uuid()
                          + " because the volume's own kvm/vm.ioMode is native: " + failed.message(),
                settingNative ? "Fix what check " + failed.check() + " names, or choose auto or io_uring, which work"
                                + " with any cache mode and image."
                        : "Delete the volume's native override first, or keep cache mode none or directsync.");
    }
}
