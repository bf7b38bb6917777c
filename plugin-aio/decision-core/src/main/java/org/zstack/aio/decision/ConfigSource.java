package org.zstack.aio.decision;

/** Where a resolved config value came from, most specific first. */
public enum ConfigSource {
    VOLUME("VolumeVO"), PRIMARY_STORAGE("PrimaryStorageVO"), GLOBAL("global");

    private final String wire;

    ConfigSource(String wire) { this.wire = wire; }

    public String wire() { return wire; }

    public static ConfigSource fromResourceType(String resourceType) {
        for (ConfigSource s : values()) if (s.wire.equals(resourceType)) return s;
        throw new IllegalArgumentException("unknown config source '" + resourceType + "'");
    }
}
