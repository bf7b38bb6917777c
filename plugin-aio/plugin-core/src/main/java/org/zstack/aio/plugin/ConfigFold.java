package org.zstack.aio.plugin;

import java.util.List;
import java.util.Objects;

/**
 * Resolution of one config for one resource: the first level that sets it, in the config's binding order (most
 * specific first), else the global value. A pure fold over the values a platform hands in: the standalone server
 * reads them from its config snapshot, ZStack's module from ResourceConfigVO, and both ask this.
 */
public final class ConfigFold {

    /** The global level's name in {@link Resolved#sourceType()}. */
    public static final String GLOBAL = "global";

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

    /** A resolved value and the level it came from (a resource type, or {@link #GLOBAL}). */
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
