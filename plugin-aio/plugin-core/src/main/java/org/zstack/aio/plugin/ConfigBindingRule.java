package org.zstack.aio.plugin;

import java.util.List;

/**
 * Whether a config may be set on a resource of a type, as its table says ({@link IoModeConfig#bindingTypes()}), in
 * the words both platforms answer with. Both name the global config's API by ZStack's REST path, which the standalone
 * server shares.
 */
public final class ConfigBindingRule {

    private ConfigBindingRule() {
    }

    /**
     * @param resourceType the resource's type as ZStack names it (VolumeVO, PrimaryStorageVO, HostVO...)
     * @return null when the config may be set on it, else the refusal
     */
    public static ConfigRefusal refusal(String category, String name, List<String> bindingTypes, String resourceType) {
        if (bindingTypes.contains(resourceType)) return null;
        String identity = category + "/" + name;
        return new ConfigRefusal(identity + " cannot be set on a " + resourceType + ".",
                bindingTypes.isEmpty()
                        ? "It is a global config only: use PUT /v1/global-configurations/" + category + "/" + name + "/actions."
                        : "It can be set on: " + String.join(", ", bindingTypes) + ".");
    }

    /** {@link #refusal} for one of the feature's configs. */
    public static ConfigRefusal refusal(IoModeConfig config, String resourceType) {
        return refusal(config.category(), config.name(), config.bindingTypes(), resourceType);
    }
}
