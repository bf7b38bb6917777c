package org.zstack.aio.server.config;

import java.util.List;

/**
 * One config as defined in conf/globalConfig/*.yaml.
 *
 * @param bindResourceTypes resource types that may override it, most specific first (then the global value)
 * @param numberGreaterThan  an Integer's lower bound, exclusive, as ZStack's {@code @GlobalConfigValidation}; null: 0
 *                           (-1 lets 0 mean "off")
 */
public record GlobalConfigDefinition(String category, String name, String description, String type,
                                     String defaultValue, List<String> validValues, List<String> bindResourceTypes,
                                     Integer numberGreaterThan) {

    public GlobalConfigDefinition {
        validValues = validValues == null ? List.of() : List.copyOf(validValues);
        bindResourceTypes = bindResourceTypes == null ? List.of() : List.copyOf(bindResourceTypes);
        numberGreaterThan = numberGreaterThan == null ? Integer.valueOf(0) : numberGreaterThan;
    }

    public GlobalConfigDefinition(String category, String name, String description, String type, String defaultValue,
                                  List<String> validValues, List<String> bindResourceTypes) {
        this(category, name, description, type, defaultValue, validValues, bindResourceTypes, null);
    }

    public String identity() {
        return category + "/" + name;
    }
}
