package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** One level of a config's resolution: a resource's override, or the global value (resourceUuid null, resourceType {@code global}). */
@JsonIgnoreProperties(ignoreUnknown = true)
public class EffectiveConfig {
    public String resourceUuid;

    public String resourceType;

    public String value;
}
