package org.zstack.aio.server.iomode;

import org.springframework.stereotype.Component;
import org.zstack.aio.decision.IoMode;
import org.zstack.aio.plugin.ConfigRefusal;
import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.VolumeIoFacts;
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
    private final CoreFacts core;
    private final IoModeConfigs configs;
    private final DiskIoModes ioModes;

    VolumeIoModeValidator(IoModeFactsLoader facts, CoreFacts core, IoModeConfigs configs, DiskIoModes ioModes) {
        this.facts = facts;
        this.core = core;
        this.configs = configs;
        this.ioModes = ioModes;
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
        VolumeIoFacts volume = core.volume(v, snap);
        ConfigValues values = core.configs(snap);
        ConfigRefusal r = settingNative ? ioModes.refuseIoModeOnVolume(value, volume, values)
                : ioModes.refuseCacheModeOnVolume(value, volume, values);
        if (r != null) throw new ApiException(ErrorCode.IO_MODE_RULED_OUT, r.description(), r.whatToDo());
    }
}
