package org.zstack.aio.agent.api;

/**
 * /volume/create: qemu-img create on the primary storage path.
 *
 * @param storageType   the primary storage type (LocalStorage, NFS, SharedMountPoint, SharedBlock, Ceph)
 * @param storagePath   the primary storage url (a directory for file storage)
 * @param format        qcow2 or raw
 * @param preallocation none, metadata, falloc or full
 * @param size          virtual size in bytes
 */
public record VolumeCreateCmd(String volumeUuid, String storageType, String storagePath, String format,
                              String preallocation, long size) {
}
