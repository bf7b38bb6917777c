package org.zstack.aio.decision;

/**
 * What the decision knows about a volume.
 *
 * @param storageType  primary storage type (LocalStorage, NFS, SharedMountPoint, SharedBlock, Ceph)
 * @param format       qcow2 or raw
 * @param preallocation none, metadata, falloc, full; null when unknown (treated as none)
 * @param virtualSize  bytes the guest sees; null when unknown
 * @param actualSize   bytes measured as allocated on the storage; null when never measured
 * @param cacheMode    the resolved kvm/vm.cacheMode of the volume
 */
public record VolumeFacts(String volumeUuid, String storageType, String format, String preallocation,
                          Long virtualSize, Long actualSize, String cacheMode) {

    public boolean allocationMeasured() { return virtualSize != null && actualSize != null && virtualSize > 0; }
}
