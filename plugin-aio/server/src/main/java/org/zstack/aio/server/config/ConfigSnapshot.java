package org.zstack.aio.server.config;

import org.zstack.aio.plugin.ConfigFold;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The config values of one category for a set of resources, read in one round trip, so resolving many
 * volumes' configs costs no more queries than resolving one. Immutable.
 */
public final class ConfigSnapshot {

    private final Map<String, String> globals;
    /** resourceUuid -> (name -> value) */
    private final Map<String, Map<String, String>> overrides;

    ConfigSnapshot(Map<String, String> globals, Map<String, Map<String, String>> overrides) {
        this.globals = Map.copyOf(globals);
        Map<String, Map<String, String>> copy = new HashMap<>();
        overrides.forEach((k, v) -> copy.put(k, Map.copyOf(v)));
        this.overrides = Map.copyOf(copy);
    }

    /** A snapshot of these values: global ones by name, and overrides by resource uuid, then name. */
    public static ConfigSnapshot of(Map<String, String> globals, Map<String, Map<String, String>> overrides) {
        return new ConfigSnapshot(globals, overrides);
    }

    /** This snapshot with one global value replaced: "what if an administrator set it". */
    public ConfigSnapshot withGlobal(String name, String value) {
        Map<String, String> g = new HashMap<>(globals);
        g.put(name, value);
        return new ConfigSnapshot(g, overrides);
    }

    /** A resolved value and where it came from. sourceUuid is null for the global level. */
    public record Resolved(String value, String sourceType, String sourceUuid) {
        public static final String GLOBAL = ConfigFold.GLOBAL;
    }

    /** One level of {@code effectiveConfigs}. */
    public record Level(String resourceUuid, String resourceType, String value) {
    }

    /**
     * The value of {@code def} for the first resource in {@code chain} (most specific first) that overrides it: the
     * core's fold ({@link ConfigFold}) over this snapshot's values.
     */
    public Resolved resolve(GlobalConfigDefinition def, List<ResourceRef> chain) {
        ConfigFold.Resolved r = ConfigFold.resolve(def.bindResourceTypes(), type -> {
            ResourceRef ref = ofType(chain, type);
            return ref == null ? null : override(ref.uuid(), def.name());
        }, global(def));
        ResourceRef source = ofType(chain, r.sourceType());
        return new Resolved(r.value(), r.sourceType(), source == null ? null : source.uuid());
    }

    /** The resource of this type in the chain, or null. */
    public static ResourceRef ofType(List<ResourceRef> chain, String type) {
        for (ResourceRef r : chain) if (r.type().equals(type)) return r;
        return null;
    }

    /** Every level that sets {@code def} for this chain, own level first, then parents, then global. */
    public List<Level> levels(GlobalConfigDefinition def, List<ResourceRef> chain) {
        List<Level> out = new ArrayList<>();
        for (String type : def.bindResourceTypes()) {
            for (ResourceRef r : chain) {
                if (!r.type().equals(type)) continue;
                String v = override(r.uuid(), def.name());
                if (v != null) out.add(new Level(r.uuid(), type, v));
            }
        }
        out.add(new Level(null, Resolved.GLOBAL, global(def)));
        return out;
    }

    public String global(GlobalConfigDefinition def) {
        String v = globals.get(def.name());
        return v == null ? def.defaultValue() : v;
    }

    public String override(String resourceUuid, String name) {
        Map<String, String> m = overrides.get(resourceUuid);
        return m == null ? null : m.get(name);
    }
}
