package org.zstack.sdk;

/** What a host knows of one primary storage's path: the facts known-bad rules test per path. */
public class StorageIoFactsInventory {
    public java.lang.String primaryStorageUuid;
    public java.lang.String path;
    /** the filesystem type of the mount holding the path (ext4, xfs, btrfs, nfs4, ...) */
    public java.lang.String filesystem;
    /** whether that mount's source is a loop device */
    public java.lang.Boolean loopBacked;
    /** whether a file under the path opens with O_DIRECT */
    public java.lang.Boolean directIo;
    public java.lang.String directIoReason;
}
