package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** An override of a global config on one resource. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class ResourceConfigInventory {
    public String uuid;

    public String resourceUuid;

    /** VolumeVO, PrimaryStorageVO, ... */
    public String resourceType;

    public String category;

    public String name;

    public String value;

    /** ISO-8601 UTC, e.g. 2026-01-31T12:00:00.000Z */
    public String createDate;

    public String lastOpDate;
}
