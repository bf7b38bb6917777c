package org.zstack.aio.zstack;

import org.zstack.aio.plugin.ConfigRefusal;
import org.zstack.aio.plugin.ConfigValues;
import org.zstack.aio.plugin.ConfigValueRule;
import org.zstack.aio.plugin.DiskIoModes;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.VolumeIoFacts;
import org.zstack.core.config.GlobalConfigException;
import org.zstack.core.db.Q;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.header.volume.VolumeVO;
import org.zstack.header.volume.VolumeVO_;
import org.zstack.kvm.KVMGlobalConfig;
import org.zstack.resourceconfig.ResourceConfigFacade;

import java.util.Collections;
import java.util.function.BiFunction;

/**
 * The core's set-time rules, answered as ZStack's own config errors (UpdateGlobalConfig, UpdateResourceConfig): a
 * value must be one of the table's, exactly ({@link ConfigValueRule}); a volume's own native, or a cache mode under
 * it, must not be ruled out by the volume's own facts ({@link DiskIoModes#refuseIoModeOnVolume},
 * {@link DiskIoModes#refuseCacheModeOnVolume}). The sentences are the core's.
 */
public final class IoModeConfigValidation {

    private final DiskIoModes ioModes;
    private final ZStackPortsFactory ports;
    private final ResourceConfigFacade rcf;

    public IoModeConfigValidation(DiskIoModes ioModes, ZStackPortsFactory ports, ResourceConfigFacade rcf) {
        this.ioModes = ioModes;
        this.ports = ports;
        this.rcf = rcf;
    }

    /** Installs the validators on ZStack's configs; called at the module's start, once ZStack has loaded them. */
    void install() {
        for (final IoModeConfig c : IoModeConfig.ALL) {
            // ZStack runs a global config's validators for its resource overrides too
            AioIoModeGlobalConfig.of(c).installValidateExtension((category, name, oldValue, newValue) ->
                    refuse(ConfigValueRule.refusal(c, newValue)));
        }
        // a primary storage: its volumes differ, each is decided at start
        rcf.getResourceConfig(AioIoModeGlobalConfig.IO_MODE.getIdentity()).installValidatorExtension(
                (resourceUuid, oldValue, newValue) ->
                        refuse(onVolume(resourceUuid, (v, configs) -> ioModes.refuseIoModeOnVolume(newValue, v, configs))));
        // a VM's cache mode: its volumes' own native is checked when they start
        rcf.getResourceConfig(KVMGlobalConfig.LIBVIRT_CACHE_MODE.getIdentity()).installValidatorExtension(
                (resourceUuid, oldValue, newValue) ->
                        refuse(onVolume(resourceUuid, (v, configs) -> ioModes.refuseCacheModeOnVolume(newValue, v, configs))));
    }

    private static void refuse(ConfigRefusal r) {
        if (r != null) throw new GlobalConfigException(r.sentence());
    }

    /**
     * The rule's answer for the volume as it is now (its cache mode as ZStack resolves it, its configs), or null when
     * the resource is no volume.
     */
    private ConfigRefusal onVolume(String uuid, BiFunction<VolumeIoFacts, ConfigValues, ConfigRefusal> rule) {
        VolumeVO vo = Q.New(VolumeVO.class).eq(VolumeVO_.uuid, uuid).find();
        if (vo == null) return null;
        ZStackPorts p = ports.forVolume(VolumeInventory.valueOf(vo),
                rcf.getResourceConfigValue(KVMGlobalConfig.LIBVIRT_CACHE_MODE, uuid, String.class));
        VolumeIoFacts v = p.volumes(Collections.singletonList(uuid)).get(uuid);
        return rule.apply(v, p.configs(Collections.singletonList(v)));
    }
}
