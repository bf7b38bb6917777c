package org.zstack.aio.plugin;

import java.util.Objects;

/**
 * What a platform knows of one volume for the use case ({@link DiskIoModes}): where it lives, its image, its cache
 * mode as the platform resolves it, and how the host's agent opens it. The host's facts of its storage path
 * (filesystem, loop backing) come from {@link HostIoFacts#storage(String)}, not from here: they are the host's.
 */
public final class VolumeIoFacts {

    private final String volumeUuid;
    private final String name;
    private final String primaryStorageUuid;
    private final String storageType;
    private final String format;
    private final String preallocation;
    private final Long virtualSize;
    private final Long actualSize;
    private final String cacheMode;
    private final DiskKind kind;
    private final String unreachableAtStart;

    private VolumeIoFacts(Builder b) {
        this.volumeUuid = Objects.requireNonNull(b.volumeUuid, "volumeUuid");
        this.name = b.name;
        this.primaryStorageUuid = b.primaryStorageUuid;
        this.storageType = b.storageType;
        this.format = b.format;
        this.preallocation = b.preallocation;
        this.virtualSize = b.virtualSize;
        this.actualSize = b.actualSize;
        this.cacheMode = b.cacheMode;
        this.kind = b.kind;
        this.unreachableAtStart = b.unreachableAtStart;
    }

    public static Builder builder(String volumeUuid) { return new Builder(volumeUuid); }

    public String volumeUuid() { return volumeUuid; }

    /** The volume's name (null: none); sentences name a volume as {@code name (uuid)}. */
    public String name() { return name; }

    public String primaryStorageUuid() { return primaryStorageUuid; }

    /** LocalStorage, NFS, SharedMountPoint, SharedBlock, Ceph, ... (the rules map it to file, block or network) */
    public String storageType() { return storageType; }

    public String format() { return format; }

    /** none, metadata, falloc, full; null: unknown (judged as none) */
    public String preallocation() { return preallocation; }

    public Long virtualSize() { return virtualSize; }

    /** bytes measured as allocated; null: never measured */
    public Long actualSize() { return actualSize; }

    public String cacheMode() { return cacheMode; }

    /** How the host opens the disk; null: as its storage kind says. */
    public DiskKind kind() { return kind; }

    /** Why what applies the decision at start cannot reach this disk; null: it can. */
    public String unreachableAtStart() { return unreachableAtStart; }

    /** How sentences name the volume: {@code name (uuid)}, or the uuid alone. */
    public String label() { return name == null ? volumeUuid : name + " (" + volumeUuid + ")"; }

    /** The same volume with another cache mode (to judge a cache mode before it is set). */
    public VolumeIoFacts withCacheMode(String cache) {
        return toBuilder().cacheMode(cache).build();
    }

    private Builder toBuilder() {
        return new Builder(volumeUuid).name(name).storage(primaryStorageUuid, storageType).image(format, preallocation)
                .sizes(virtualSize, actualSize).cacheMode(cacheMode).kind(kind).unreachableAtStart(unreachableAtStart);
    }

    @Override
    public String toString() {
        return "VolumeIoFacts[" + label() + " on " + storageType + " " + primaryStorageUuid + ", " + format + " " + preallocation
               + ", " + actualSize + "/" + virtualSize + ", cache " + cacheMode + (kind == null ? "" : ", " + kind) + "]";
    }

    public static final class Builder {
        private final String volumeUuid;
        private String name;
        private String primaryStorageUuid;
        private String storageType;
        private String format;
        private String preallocation;
        private Long virtualSize;
        private Long actualSize;
        private String cacheMode;
        private DiskKind kind;
        private String unreachableAtStart;

        private Builder(String volumeUuid) { this.volumeUuid = volumeUuid; }

        public Builder name(String n) { name = n; return this; }
        public Builder storage(String uuid, String type) { primaryStorageUuid = uuid; storageType = type; return this; }
        public Builder image(String fmt, String prealloc) { format = fmt; preallocation = prealloc; return this; }
        /** @param actual bytes allocated (null or not positive: never measured) */
        public Builder sizes(Long virtual, Long actual) {
            virtualSize = virtual;
            actualSize = actual == null || actual <= 0 ? null : actual;
            return this;
        }
        public Builder cacheMode(String c) { cacheMode = c; return this; }
        public Builder kind(DiskKind k) { kind = k; return this; }
        public Builder unreachableAtStart(String why) { unreachableAtStart = why; return this; }
        public VolumeIoFacts build() { return new VolumeIoFacts(this); }
    }
}
