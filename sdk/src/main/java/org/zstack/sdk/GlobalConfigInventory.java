package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/** A global config (docs/contract.md, "Configs"); values are strings. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class GlobalConfigInventory {
    public String category;

    public String name;

    public String value;

    public String defaultValue;

    public String description;

    /** The values accepted, empty when any value of the type is. */
    public List<String> validValues;

    /** Resource types that may override it, most specific first (VolumeVO, PrimaryStorageVO, ...). */
    public List<String> bindResourceTypes;
}
