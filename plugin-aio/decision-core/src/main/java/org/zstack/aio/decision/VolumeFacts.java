package org.zstack.aio.decision;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/** What the decision knows about a volume. */
public final class VolumeFacts {

    private final String volumeUuid;
    private final String storageType;
    private final String format;
    private final String preallocation;
    private final Long virtualSize;
    private final Long actualSize;
    private final String cacheMode;
    private final String filesystem;
    private final Boolean loopBacked;
    private final Map<IoMode, String> refusedModes;

    /**
     * @param storageType   primary storage type (LocalStorage, NFS, SharedMountPoint, SharedBlock, Ceph)
     * @param format        qcow2 or raw
     * @param preallocation none, metadata, falloc, full; null when unknown (treated as none)
     * @param virtualSize   bytes the guest sees; null when unknown
     * @param actualSize    bytes measured as allocated on the storage; null when never measured
     * @param cacheMode     the resolved kvm/vm.cacheMode of the volume
     */
    public VolumeFacts(String volumeUuid, String storageType, String format, String preallocation,
                       Long virtualSize, Long actualSize, String cacheMode) {
        this(volumeUuid, storageType, format, preallocation, virtualSize, actualSize, cacheMode, null);
    }

    /** @param filesystem filesystem type of the storage path holding the image, as the agent probed it (null: unknown) */
    public VolumeFacts(String volumeUuid, String storageType, String format, String preallocation,
                       Long virtualSize, Long actualSize, String cacheMode, String filesystem) {
        this(volumeUuid, storageType, format, preallocation, virtualSize, actualSize, cacheMode, filesystem, null);
    }

    /**
     * @param loopBacked whether the filesystem holding the image is mounted from a loop device (an image file of its
     *                   own, as LXD/Incus loop-backed pools are), as the agent probed it; null: unknown
     */
    public VolumeFacts(String volumeUuid, String storageType, String format, String preallocation,
                       Long virtualSize, Long actualSize, String cacheMode, String filesystem, Boolean loopBacked) {
        this(volumeUuid, storageType, format, preallocation, virtualSize, actualSize, cacheMode, filesystem, loopBacked, null);
    }

    /**
     * @param refusedModes the modes libvirt or QEMU refused at a start on this host × storage and that are remembered
     *                     (not cleared yet), each with the sentence saying when, what refused it and how to clear it;
     *                     null: none
     */
    public VolumeFacts(String volumeUuid, String storageType, String format, String preallocation,
                       Long virtualSize, Long actualSize, String cacheMode, String filesystem, Boolean loopBacked,
                       Map<IoMode, String> refusedModes) {
        this.refusedModes = refusedModes == null || refusedModes.isEmpty() ? Collections.<IoMode, String>emptyMap()
                : Collections.unmodifiableMap(new EnumMap<IoMode, String>(refusedModes));
        this.filesystem = filesystem;
        this.loopBacked = loopBacked;
        this.volumeUuid = volumeUuid;
        this.storageType = storageType;
        this.format = format;
        this.preallocation = preallocation;
        this.virtualSize = virtualSize;
        this.actualSize = actualSize;
        this.cacheMode = cacheMode;
    }

    public String volumeUuid() { return volumeUuid; }

    public String storageType() { return storageType; }

    public String format() { return format; }

    public String preallocation() { return preallocation; }

    public Long virtualSize() { return virtualSize; }

    public Long actualSize() { return actualSize; }

    public String cacheMode() { return cacheMode; }

    public String filesystem() { return filesystem; }

    public Boolean loopBacked() { return loopBacked; }

    /** The modes remembered as refused on this host × storage, each with its sentence; empty when none. */
    public Map<IoMode, String> refusedModes() { return refusedModes; }

    /** The same volume on a storage path whose filesystem type the agent probed. */
    public VolumeFacts withFilesystem(String fs) {
        return new VolumeFacts(volumeUuid, storageType, format, preallocation, virtualSize, actualSize, cacheMode, fs, loopBacked, refusedModes);
    }

    /** The same volume on a storage path the agent found loop-backed (true) or not (false). */
    public VolumeFacts withLoopBacked(Boolean loop) {
        return new VolumeFacts(volumeUuid, storageType, format, preallocation, virtualSize, actualSize, cacheMode, filesystem, loop, refusedModes);
    }

    /** The same volume with these modes remembered as refused on its host × storage (null or empty: none). */
    public VolumeFacts withRefusedModes(Map<IoMode, String> refused) {
        return new VolumeFacts(volumeUuid, storageType, format, preallocation, virtualSize, actualSize, cacheMode, filesystem,
                loopBacked, refused);
    }

    /** The same volume with another cache mode (to judge a cache mode before it is set). */
    public VolumeFacts withCacheMode(String cache) {
        return new VolumeFacts(volumeUuid, storageType, format, preallocation, virtualSize, actualSize, cache, filesystem, loopBacked, refusedModes);
    }

    public boolean allocationMeasured() { return virtualSize != null && actualSize != null && virtualSize > 0; }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof VolumeFacts)) return false;
        VolumeFacts v = (VolumeFacts) o;
        return Objects.equals(volumeUuid, v.volumeUuid) && Objects.equals(storageType, v.storageType)
               && Objects.equals(format, v.format) && Objects.equals(preallocation, v.preallocation)
               && Objects.equals(virtualSize, v.virtualSize) && Objects.equals(actualSize, v.actualSize)
               && Objects.equals(cacheMode, v.cacheMode) && Objects.equals(filesystem, v.filesystem)
               && Objects.equals(loopBacked, v.loopBacked) && refusedModes.equals(v.refusedModes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(volumeUuid, storageType, format, preallocation, virtualSize, actualSize, cacheMode, filesystem, loopBacked,
                refusedModes);
    }

    @Override
    public String toString() {
        return "VolumeFacts[volumeUuid=" + volumeUuid + ", storageType=" + storageType + ", format=" + format
               + ", preallocation=" + preallocation + ", virtualSize=" + virtualSize + ", actualSize=" + actualSize
               + ", cacheMode=" + cacheMode + ", filesystem=" + filesystem + ", loopBacked=" + loopBacked
               + (refusedModes.isEmpty() ? "" : ", refusedModes=" + refusedModes.keySet()) + "]";
    }
}
