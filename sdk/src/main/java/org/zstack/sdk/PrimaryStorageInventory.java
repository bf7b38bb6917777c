package org.zstack.sdk;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/** A primary storage; {@code type} is LocalStorage, NFS, SharedMountPoint, SharedBlock or Ceph. */
@JsonIgnoreProperties(ignoreUnknown = true)
public class PrimaryStorageInventory {
    public String uuid;

    public String name;

    public String type;

    public String url;

    public String status;

    /** file, block or network: how the storage type holds a volume. */
    public String storageKind;

    public Long volumeCount;
}
