package org.zstack.aio.zstack;

import org.zstack.aio.decision.ConfigSource;
import org.zstack.aio.decision.DecisionPolicy;
import org.zstack.aio.decision.OnUnsatisfied;
import org.zstack.aio.decision.RequestedIoMode;
import org.zstack.core.config.GlobalConfig;
import org.zstack.core.db.Q;
import org.zstack.header.volume.VolumeInventory;
import org.zstack.resourceconfig.ResourceConfigVO;
import org.zstack.resourceconfig.ResourceConfigVO_;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resolves the three io-mode configs of many volumes at once: the volume's own override, else its primary storage's,
 * else the global value. One query reads every override of the volumes and their primary storages, so a VM start
 * costs the same whatever its number of disks. ZStack's ResourceConfig resolves one config per call and does not say
 * which level won; the decision needs the level, so it is read here from the same ResourceConfigVO rows.
 */
final class IoModeConfigResolver {

    private static final List<GlobalConfig> CONFIGS = Arrays.asList(
            AioIoModeGlobalConfig.IO_MODE, AioIoModeGlobalConfig.ON_UNSATISFIED, AioIoModeGlobalConfig.ALLOW_FALLOC);

    Map<String, ResolvedIoModeConfig> resolve(List<VolumeInventory> volumes) {
        Set<String> owners = new HashSet<>();
        for (VolumeInventory v : volumes) {
            owners.add(v.getUuid());
            if (v.getPrimaryStorageUuid() != null) owners.add(v.getPrimaryStorageUuid());
        }
        Map<String, Map<String, String>> overrides = overrides(owners);
        Map<String, ResolvedIoModeConfig> out = new LinkedHashMap<>();
        for (VolumeInventory v : volumes) {
            Resolved mode = resolve(AioIoModeGlobalConfig.IO_MODE, v, overrides);
            Resolved onUnsatisfied = resolve(AioIoModeGlobalConfig.ON_UNSATISFIED, v, overrides);
            Resolved allowFalloc = resolve(AioIoModeGlobalConfig.ALLOW_FALLOC, v, overrides);
            out.put(v.getUuid(), new ResolvedIoModeConfig(RequestedIoMode.fromWire(mode.value), mode.source,
                    new DecisionPolicy(OnUnsatisfied.fromWire(onUnsatisfied.value), Boolean.parseBoolean(allowFalloc.value))));
        }
        return out;
    }

    /** owner uuid -> config name -> value, for every override of the io-mode configs on these owners. */
    private static Map<String, Map<String, String>> overrides(Set<String> owners) {
        Map<String, Map<String, String>> byOwner = new HashMap<>();
        if (owners.isEmpty()) return byOwner;
        List<String> names = new ArrayList<>();
        for (GlobalConfig c : CONFIGS) names.add(c.getName());
        List<ResourceConfigVO> rows = Q.New(ResourceConfigVO.class)
                .eq(ResourceConfigVO_.category, AioIoModeGlobalConfig.CATEGORY)
                .in(ResourceConfigVO_.name, names)
                .in(ResourceConfigVO_.resourceUuid, new ArrayList<>(owners))
                .list();
        for (ResourceConfigVO r : rows) {
            byOwner.computeIfAbsent(r.getResourceUuid(), k -> new HashMap<>()).put(r.getName(), r.getValue());
        }
        return byOwner;
    }

    private static Resolved resolve(GlobalConfig config, VolumeInventory v, Map<String, Map<String, String>> overrides) {
        String own = valueOf(overrides, v.getUuid(), config);
        if (own != null) return new Resolved(own, ConfigSource.VOLUME);
        String ps = valueOf(overrides, v.getPrimaryStorageUuid(), config);
        if (ps != null) return new Resolved(ps, ConfigSource.PRIMARY_STORAGE);
        return new Resolved(config.value(), ConfigSource.GLOBAL);
    }

    private static String valueOf(Map<String, Map<String, String>> overrides, String owner, GlobalConfig config) {
        Map<String, String> m = owner == null ? null : overrides.get(owner);
        return m == null ? null : m.get(config.getName());
    }

    private static final class Resolved {
        final String value;
        final ConfigSource source;

        Resolved(String value, ConfigSource source) {
            this.value = value;
            this.source = source;
        }
    }
}
