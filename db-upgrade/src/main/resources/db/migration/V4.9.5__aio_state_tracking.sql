-- The aio plugin (4.9.5): state that matches the hosts. A VM's state changes as a compare-and-set on
-- stateVersion; an operation in flight holds a lease (opLeaseUntil) its node renews, so any node may settle a
-- Starting/Stopping left behind once the lease lapsed. stateReason says why the tracker changed a state.
-- VolumeRunningVO: each disk's io/cache as the live domain has it. attachClaimUntil: one hot-plug per volume.

ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `stateVersion` BIGINT NOT NULL DEFAULT 0;
ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `opLeaseUntil` DATETIME(3) NULL;
ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `stateReason` VARCHAR(1024) NULL;
ALTER TABLE `VolumeVO` ADD COLUMN IF NOT EXISTS `attachClaimUntil` DATETIME(3) NULL;

CREATE TABLE IF NOT EXISTS `VolumeRunningVO` (
  `volumeUuid` VARCHAR(32) NOT NULL,
  `vmInstanceUuid` VARCHAR(32) NOT NULL,
  `hostUuid` VARCHAR(32) NOT NULL,
  `io` VARCHAR(32) NULL,
  `cache` VARCHAR(32) NULL,
  `since` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`volumeUuid`),
  KEY `idxVolumeRunningVOVmInstanceUuid` (`vmInstanceUuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- host tracking: the node that claims a host (until trackClaimUntil) pings it and syncs its VMs this round
ALTER TABLE `HostVO` ADD COLUMN IF NOT EXISTS `trackClaimUntil` DATETIME(3) NULL;
