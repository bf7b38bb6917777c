package org.zstack.aio.plugin;

/** How a host opens a disk, as far as what its agent writes into {@code <driver io=>} depends on it. */
public enum DiskKind {
    /** an image file on a filesystem (LocalStorage, NFS, SharedMountPoint) */
    FILE,
    /** a block device (SharedBlock's LVM volumes) */
    BLOCK,
    /** opened by QEMU's network block driver (Ceph RBD): no io attribute */
    NETWORK
}
