package org.zstack.aio.plugin;

/**
 * The io-mode config values a platform read for a set of volumes, in one read: the overrides on each volume and its
 * primary storage, and the global values. The use case folds them for each volume ({@link IoModeSettings}).
 */
public interface ConfigValues {

    /** The value of {@code config} set on the resource {@code resourceUuid} (a volume or a primary storage); null: none. */
    String override(String resourceUuid, IoModeConfig config);

    /** The global value (the platform's stored one, or the default when none is stored). */
    String global(IoModeConfig config);

    /** The global config's default as the platform declares it: a global value equal to it was not an admin's choice. */
    String globalDefault(IoModeConfig config);
}
