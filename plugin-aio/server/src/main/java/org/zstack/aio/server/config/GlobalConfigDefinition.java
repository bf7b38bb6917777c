package org.zstack.aio.server.config;

import java.util.List;

/**
 * One config as defined in conf/globalConfig/*.yaml.
 *
 * @param bindResourceTypes resource types that may override it, most specific first (then the global value)
 */
public record GlobalConfigDefinition(String category, String name, String description, String type,
                                     String defaultValue, List<String> validValues, List<String> bindResourceTypes) {

    public GlobalConfigDefinition {
        validValues = validValues == null ? List.of() : List.copyOf(validValues);
        bindResourceTypes = bindResourceTypes == null ? List.of() : List.copyOf(bindResourceTypes);
    }

    public String identity() {
        return category + "/" + name;
    }

    public boolean bindableTo(String resourceType) {
        return bindResourceTypes.contains(resourceType);
    }
}
