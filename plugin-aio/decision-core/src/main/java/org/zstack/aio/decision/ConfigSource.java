package org.zstack.aio.decision;

/**
 * Where a resolved config value came from, most specific first. {@link #STORAGE_KIND_DEFAULT} is no config level: it is
 * the rules' default for the volume's storage kind (conf/aio/io-mode-rules.yaml, storageKindDefaults), which stands in
 * for the global config's default value when no admin set one anywhere.
 */
public enum ConfigSource {
    VOLUME("VolumeVO"), PRIMARY_STORAGE("PrimaryStorageVO"), GLOBAL("global"), STORAGE_KIND_DEFAULT("StorageKindDefault");

    private final String wire;

    ConfigSource(String wire) { this.wire = wire; }

    public String wire() { return wire; }

    public static ConfigSource fromResourceType(String resourceType) {
        for (ConfigSource s : values()) if (s.wire.equals(resourceType)) return s;
        throw new IllegalArgumentException("unknown config source '" + resourceType + "'");
    }
}
