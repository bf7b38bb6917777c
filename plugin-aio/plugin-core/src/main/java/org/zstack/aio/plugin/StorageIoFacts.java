package org.zstack.aio.plugin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a host knows of one primary storage it mounts, per storage path: the facts known-bad rules test per path
 * (the filesystem holding the images, whether that filesystem is mounted from a loop device, whether it takes
 * O_DIRECT), and the io modes libvirt or QEMU refused at a start there, remembered until cleared ({@link RefusedIoMode}). Part of the one host-facts contract ({@link HostIoFacts}); any field is null when it was not gathered,
 * and the host's {@code unknown} says why. JavaBean getters, so Jackson and ZStack's Gson write the same names.
 */
public final class StorageIoFacts {

    private final String primaryStorageUuid;
    private final String path;
    private final String filesystem;
    private final Boolean loopBacked;
    private final Boolean directIo;
    private final String directIoReason;
    private final List<RefusedIoMode> refused;

    /**
     * @param filesystem    the filesystem type of the mount holding {@code path} (/proc/mounts), e.g. ext4, btrfs, nfs4
     * @param loopBacked    whether that mount's source is a loop device (an image file of its own)
     * @param directIo       whether a file under {@code path} opens with O_DIRECT
     * @param directIoReason why not, as the host said it; null unless {@code directIo} is false
     */
    public StorageIoFacts(String primaryStorageUuid, String path, String filesystem, Boolean loopBacked, Boolean directIo,
                          String directIoReason) {
        this(primaryStorageUuid, path, filesystem, loopBacked, directIo, directIoReason, null);
    }

    /** @param refused the modes remembered as refused on this host × storage (null: none) */
    public StorageIoFacts(String primaryStorageUuid, String path, String filesystem, Boolean loopBacked, Boolean directIo,
                          String directIoReason, List<RefusedIoMode> refused) {
        this.refused = refused == null ? Collections.<RefusedIoMode>emptyList()
                : Collections.unmodifiableList(new ArrayList<RefusedIoMode>(refused));
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
    /** the io modes libvirt or QEMU refused at a start on this host × storage, remembered until cleared; empty: none */
    public List<RefusedIoMode> getRefused() { return refused; }

    /** The same path's facts with these refusals remembered (replacing those before). */
    public StorageIoFacts withRefused(List<RefusedIoMode> remembered) {
        return new StorageIoFacts(primaryStorageUuid, path, filesystem, loopBacked, directIo, directIoReason, remembered);
    }

    @Override
    public String toString() {
        return "StorageIoFacts[" + primaryStorageUuid + " " + path + ", filesystem=" + filesystem + ", loopBacked="
               + loopBacked + ", directIo=" + directIo + (refused.isEmpty() ? "" : ", refused=" + refused) + "]";
    }
}
