package org.zstack.aio.decision;

/** How a primary storage type holds a volume; which types are which is data (conf/aio/io-mode-rules.yaml). */
public enum StorageKind {
    /** an image file on a filesystem (LocalStorage, NFS, SharedMountPoint) */
    FILE,
    /** a block device with no filesystem (SharedBlock LVs) */
    BLOCK,
    /** opened by QEMU's own network driver (Ceph RBD): no io attribute */
    NETWORK
}
