package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** The value a resource gets and every level that sets it. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GetResourceConfigResult {
    /** The effective value for the resource. */
    public String value;

    /** Own level first, then parents, then global (always last). */
    public List<EffectiveConfig> effectiveConfigs;

    /** The values the config accepts. */
    public List<String> validValues;
}
