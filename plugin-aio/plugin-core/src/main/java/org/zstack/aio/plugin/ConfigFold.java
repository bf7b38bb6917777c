package org.zstack.aio.plugin;

import org.zstack.aio.decision.ConfigSource;

import java.util.List;
import java.util.Objects;

/**
 * Resolution of one config for one resource: the first level that sets it, in the config's binding order (most
 * specific first), else the global value (or, where the rules give the resource's storage kind its own default and
 * no admin changed the global value, that default). A pure fold over the values a platform hands in: the standalone server
 * reads them from its config snapshot, ZStack's module from ResourceConfigVO, and both ask this.
 */
public final class ConfigFold {

    /** The global level's name in {@link Resolved#sourceType()}. */
    public static final String GLOBAL = ConfigSource.GLOBAL.wire();

    /** {@link Resolved#sourceType()} of a storage kind's default (the rules file's, not a config level). */
    public static final String STORAGE_KIND_DEFAULT = ConfigSource.STORAGE_KIND_DEFAULT.wire();

    /** What a platform hands in: the value set on the resource of this type in the chain, or null when none is. */
    public interface Levels {
        String valueAt(String resourceType);
    }

    private ConfigFold() {
    }

    /**
     * @param bindingTypes the resource types that may override the config, most specific first
     * @param globalValue  the global value (the platform's stored one, or the default)
     */
    public static Resolved resolve(List<String> bindingTypes, Levels levels, String globalValue) {
        for (String type : bindingTypes) {
            String v = levels.valueAt(type);
            if (v != null) return new Resolved(v, type);
        }
        return new Resolved(globalValue, GLOBAL);
    }

    /**
     * As {@link #resolve(List, Levels, String)}, where {@code kindDefault} (null: none) replaces the config's default
     * value for this resource's storage kind: volume → primary storage → the global value when an admin changed it
     * (it differs from {@code defaultValue}) → the kind's default → the global default. So a fresh install behaves
     * as the rules say for each kind, and any explicit choice by an admin wins. A global value an admin set back to
     * its default is indistinguishable from one never set (ZStack stores the value alone), so it counts as unchanged.
     *
     * @param defaultValue the global config's default, as the platform declares it
     */
    public static Resolved resolve(List<String> bindingTypes, Levels levels, String globalValue, String defaultValue,
                                   String kindDefault) {
        Resolved r = resolve(bindingTypes, levels, globalValue);
        if (kindDefault == null || !GLOBAL.equals(r.sourceType()) || !Objects.equals(globalValue, defaultValue)) return r;
        return new Resolved(kindDefault, STORAGE_KIND_DEFAULT);
    }

    /** A resolved value and the level it came from (a resource type, {@link #GLOBAL} or {@link #STORAGE_KIND_DEFAULT}). */
    public static final class Resolved {
        private final String value;
        private final String sourceType;

        public Resolved(String value, String sourceType) {
            this.value = value;
            this.sourceType = sourceType;
        }

        public String value() { return value; }

        public String sourceType() { return sourceType; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Resolved && Objects.equals(value, ((Resolved) o).value)
                   && Objects.equals(sourceType, ((Resolved) o).sourceType);
        }

        @Override
        public int hashCode() { return Objects.hash(value, sourceType); }

        @Override
        public String toString() { return value + " (" + sourceType + ")"; }
    }
}
