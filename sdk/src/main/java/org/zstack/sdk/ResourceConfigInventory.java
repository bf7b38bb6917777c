package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** An override of a global config on one resource. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourceConfigInventory {
    public String resourceUuid;

    /** VolumeVO, PrimaryStorageVO, ... */
    public String resourceType;

    public String category;

    public String name;

    public String value;
}
