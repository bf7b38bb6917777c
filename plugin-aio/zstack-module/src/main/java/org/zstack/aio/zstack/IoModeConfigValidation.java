package org.zstack.aio.zstack;

import org.zstack.aio.decision.IoModeDecider;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.plugin.ConfigRefusal;
import org.zstack.aio.plugin.ConfigValueRule;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.IoModeSettings;
import org.zstack.aio.plugin.VolumeSetRule;
import org.zstack.core.config.GlobalConfigException;
import org.zstack.core.db.Q;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.header.volume.VolumeVO;
import org.zstack.header.volume.VolumeVO_;
import org.zstack.kvm.KVMGlobalConfig;
import org.zstack.resourceconfig.ResourceConfigFacade;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The core's set-time rules, answered as ZStack's own config errors (UpdateGlobalConfig, UpdateResourceConfig): a
 * value must be one of the table's, exactly ({@link ConfigValueRule}); a volume's own native, or a cache mode under
 * it, must not be ruled out by the volume's own facts ({@link VolumeSetRule}). The sentences are the core's.
 */
final class IoModeConfigValidation {

    private final VolumeSetRule rule;
    private final IoModeConfigResolver configs;
    private final VolumeFactsReader facts;
    private final ResourceConfigFacade rcf;

    IoModeConfigValidation(IoModeDecider decider, VolumeFactsReader facts, ResourceConfigFacade rcf) {
        this.rule = new VolumeSetRule(decider);
        this.configs = new IoModeConfigResolver(decider.rules());
        this.facts = facts;
        this.rcf = rcf;
    }

    void install() {
        for (final IoModeConfig c : IoModeConfig.ALL) {
            // ZStack runs a global config's validators for its resource overrides too
            IoModeConfigResolver.globalConfig(c).installValidateExtension((category, name, oldValue, newValue) ->
                    refuse(ConfigValueRule.refusal(c, newValue)));
        }
        rcf.getResourceConfig(AioIoModeGlobalConfig.IO_MODE.getIdentity()).installValidatorExtension(
                (resourceUuid, oldValue, newValue) -> {
                    VolumeInventory vol = volume(resourceUuid);
                    if (vol == null) return; // a primary storage: its volumes differ, each is decided at start
                    VolumeFacts f = facts(vol, cacheMode(resourceUuid));
                    refuse(rule.ioMode(newValue, f, settings(vol, f).policy()));
                });
        rcf.getResourceConfig(KVMGlobalConfig.LIBVIRT_CACHE_MODE.getIdentity()).installValidatorExtension(
                (resourceUuid, oldValue, newValue) -> {
                    VolumeInventory vol = volume(resourceUuid);
                    if (vol == null) return; // a VM's cache mode: its volumes' own native is checked when they start
                    String ownIoMode = ownOverride(resourceUuid);
                    VolumeFacts f = facts(vol, cacheMode(resourceUuid));
                    refuse(rule.cacheMode(newValue, ownIoMode, f, settings(vol, f).policy()));
                });
    }

    private static void refuse(ConfigRefusal r) {
        if (r != null) throw new GlobalConfigException(r.sentence());
    }

    private static VolumeInventory volume(String uuid) {
        VolumeVO vo = Q.New(VolumeVO.class).eq(VolumeVO_.uuid, uuid).find();
        return vo == null ? null : VolumeInventory.valueOf(vo);
    }

    private String cacheMode(String volumeUuid) {
        return rcf.getResourceConfigValue(KVMGlobalConfig.LIBVIRT_CACHE_MODE, volumeUuid, String.class);
    }

    private VolumeFacts facts(VolumeInventory vol, String cacheMode) {
        return facts.volumes(Collections.singletonList(vol), Collections.singletonMap(vol.getUuid(), cacheMode))
                .get(vol.getUuid());
    }

    private IoModeSettings settings(VolumeInventory vol, VolumeFacts f) {
        Set<String> owners = new HashSet<>(Collections.singleton(vol.getUuid()));
        if (vol.getPrimaryStorageUuid() != null) owners.add(vol.getPrimaryStorageUuid());
        return configs.resolve(vol, f.storageType(), IoModeConfigResolver.overrides(owners));
    }

    private static String ownOverride(String volumeUuid) {
        Map<String, String> own = IoModeConfigResolver.overrides(Collections.singleton(volumeUuid)).get(volumeUuid);
        return own == null ? null : own.get(IoModeConfig.IO_MODE.name());
    }
}
