package org.zstack.aio.server.volume;

import org.zstack.aio.server.iomode.IoModeService.StoredDecision;

/** A volume as the API shows it (ZStack field names), with its resolved cache mode and its stored decision. */
public record VolumeInventory(String uuid, String name, String primaryStorageUuid, String primaryStorageName,
                              String primaryStorageType, String vmInstanceUuid,
                              Integer deviceId, String installPath, String format, long size, Long actualSize,
                              String preallocation, String cacheMode, String accountUuid, StoredDecision ioModeDecision) {
}
