package org.zstack.aio.zstack;

import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.IoModeRules;
import org.zstack.aio.decision.VolumeFacts;
import org.zstack.aio.plugin.IoModeConfig;
import org.zstack.aio.plugin.IoModeSettings;
import org.zstack.core.config.GlobalConfig;
import org.zstack.core.db.Q;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.resourceconfig.ResourceConfigVO;
import org.zstack.resourceconfig.ResourceConfigVO_;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Hands the core's fold ({@link IoModeSettings#resolve}) the io-mode configs of many volumes at once: one query reads
 * every override on the volumes and their primary storages, so a VM start costs the same whatever its number of
 * disks. ZStack's ResourceConfig resolves one config per call and does not say which level won; the decision needs
 * the level, so the rows are read here and the core folds them.
 */
final class IoModeConfigResolver {

    private final IoModeRules rules;

    IoModeConfigResolver(IoModeRules rules) {
        this.rules = rules;
    }

    /** @param facts volume uuid -> its facts (read already for the decision: their storage type picks the kind's default) */
    Map<String, IoModeSettings> resolve(List<VolumeInventory> volumes, Map<String, VolumeFacts> facts) {
        Set<String> owners = new HashSet<>();
        for (VolumeInventory v : volumes) {
            owners.add(v.getUuid());
            if (v.getPrimaryStorageUuid() != null) owners.add(v.getPrimaryStorageUuid());
        }
        Map<String, Map<String, String>> overrides = overrides(owners);
        Map<String, IoModeSettings> out = new LinkedHashMap<>();
        for (VolumeInventory v : volumes) {
            VolumeFacts f = facts.get(v.getUuid());
            out.put(v.getUuid(), resolve(v, f == null ? null : f.storageType(), overrides));
        }
        return out;
    }

    /**
     * One volume's settings. The global value counts as an admin's choice only when it differs from its default
     * (GlobalConfigVO's value against its defaultValue): until then the rules' default for the volume's storage kind
     * stands in (SharedBlock: native, as ZStack's agent ran it), so SharedBlock storage added after the install runs
     * as it did before the plugin without the upgrade script's one-time pin.
     */
    IoModeSettings resolve(final VolumeInventory v, String storageType, final Map<String, Map<String, String>> overrides) {
        return IoModeSettings.resolve(new IoModeSettings.Values() {
            @Override
            public String override(ConfigSource level, IoModeConfig config) {
                Map<String, String> m = overrides.get(level == ConfigSource.VOLUME ? v.getUuid() : v.getPrimaryStorageUuid());
                return m == null ? null : m.get(config.name());
            }

            @Override
            public String global(IoModeConfig config) {
                return globalConfig(config).value();
            }

            @Override
            public String globalDefault(IoModeConfig config) {
                return globalConfig(config).getDefaultValue();
            }
        }, rules, storageType);
    }

    static GlobalConfig globalConfig(IoModeConfig config) {
        if (config == IoModeConfig.IO_MODE) return AioIoModeGlobalConfig.IO_MODE;
        if (config == IoModeConfig.ON_UNSATISFIED) return AioIoModeGlobalConfig.ON_UNSATISFIED;
        if (config == IoModeConfig.ALLOW_FALLOC) return AioIoModeGlobalConfig.ALLOW_FALLOC;
        throw new IllegalArgumentException("no ZStack global config for " + config);
    }

    /** owner uuid -> config name -> value, for every override of the io-mode configs on these owners. */
    static Map<String, Map<String, String>> overrides(Set<String> owners) {
        Map<String, Map<String, String>> byOwner = new HashMap<>();
        if (owners.isEmpty()) return byOwner;
        List<String> names = new ArrayList<>();
        for (IoModeConfig c : IoModeConfig.ALL) names.add(c.name());
        List<ResourceConfigVO> rows = Q.New(ResourceConfigVO.class)
                .eq(ResourceConfigVO_.category, IoModeConfig.CATEGORY)
                .in(ResourceConfigVO_.name, names)
                .in(ResourceConfigVO_.resourceUuid, new ArrayList<>(owners))
                .list();
        for (ResourceConfigVO r : rows) {
            byOwner.computeIfAbsent(r.getResourceUuid(), k -> new HashMap<>()).put(r.getName(), r.getValue());
        }
        return byOwner;
    }
}
