package org.zstack.aio.server.config;

/**
 * Extension point: a feature may refuse a resource config value that the resource's own facts rule out
 * (e.g. native on a writeback-cache volume). Called before anything is written; throw an ApiException (400).
 */
public interface ResourceConfigValidator {

    /**
     * @param resource the resource the value is set on
     * @param def      the config being set
     * @param value    the new value, already checked against the definition's valid values
     */
    void validate(LocatedResource resource, GlobalConfigDefinition def, String value);
}
