package org.zstack.aio.plugin;

/**
 * What a host knows of one primary storage it mounts, per storage path: the facts known-bad rules test per path
 * (the filesystem holding the images, whether that filesystem is mounted from a loop device, whether it takes
 * O_DIRECT). Part of the one host-facts contract ({@link HostIoFacts}); any field is null when it was not gathered,
 * and the host's {@code unknown} says why. JavaBean getters, so Jackson and ZStack's Gson write the same names.
 */
public final class StorageIoFacts {

    private final String primaryStorageUuid;
    private final String path;
    private final String filesystem;
    private final Boolean loopBacked;
    private final Boolean directIo;
    private final String directIoReason;

    /**
     * @param filesystem    the filesystem type of the mount holding {@code path} (/proc/mounts), e.g. ext4, btrfs, nfs4
     * @param loopBacked    whether that mount's source is a loop device (an image file of its own)
     * @param directIo       whether a file under {@code path} opens with O_DIRECT
     * @param directIoReason why not, as the host said it; null unless {@code directIo} is false
     */
    public StorageIoFacts(String primaryStorageUuid, String path, String filesystem, Boolean loopBacked, Boolean directIo,
                          String directIoReason) {
        this.primaryStorageUuid = primaryStorageUuid;
        this.path = path;
        this.filesystem = filesystem;
        this.loopBacked = loopBacked;
        this.directIo = directIo;
        this.directIoReason = directIoReason;
    }

    public String getPrimaryStorageUuid() { return primaryStorageUuid; }
    public String getPath() { return path; }
    public String getFilesystem() { return filesystem; }
    public Boolean getLoopBacked() { return loopBacked; }
    /** whether a file under the path opens with O_DIRECT (what cache none and directsync need) */
    public Boolean getDirectIo() { return directIo; }
    public String getDirectIoReason() { return directIoReason; }

    @Override
    public String toString() {
        return "StorageIoFacts[" + primaryStorageUuid + " " + path + ", filesystem=" + filesystem + ", loopBacked="
               + loopBacked + ", directIo=" + directIo + "]";
    }
}
