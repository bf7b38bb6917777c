-- The aio plugin (4.9.0): preallocation on volumes, probed host io capabilities, stored decisions, and the
-- pin that keeps SharedBlock volumes on native, as the previous agent hard-coded.
-- Every statement is idempotent, so an upgrade interrupted halfway (MariaDB DDL is not transactional)
-- can be re-run to the same end state.

ALTER TABLE `VolumeVO` ADD COLUMN IF NOT EXISTS `preallocation` VARCHAR(32) NULL;

CREATE TABLE IF NOT EXISTS `HostIoCapabilitiesVO` (
  `hostUuid` VARCHAR(32) NOT NULL,
  `kernelVersion` VARCHAR(255) NULL,
  `ioUringDisabled` INT NULL,
  `qemuVersion` VARCHAR(255) NULL,
  `qemuIoUring` TINYINT(1) NULL,
  `qemuIoUringError` TEXT NULL,
  `qemuNative` TINYINT(1) NULL,
  `qemuNativeError` TEXT NULL,
  `libvirtVersion` VARCHAR(255) NULL,
  `libvirtUri` VARCHAR(255) NULL,
  `storagePaths` TEXT NULL,
  `lastProbeDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`hostUuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `VolumeIoModeDecisionVO` (
  `volumeUuid` VARCHAR(32) NOT NULL,
  `vmInstanceUuid` VARCHAR(32) NULL,
  `hostUuid` VARCHAR(32) NULL,
  `requested` VARCHAR(32) NOT NULL,
  `source` VARCHAR(32) NOT NULL,
  `effective` VARCHAR(32) NULL,
  `refused` TINYINT(1) NOT NULL DEFAULT 0,
  `checks` TEXT NOT NULL,
  `reason` TEXT NOT NULL,
  `appliedIo` VARCHAR(32) NULL,
  `appliedCache` VARCHAR(32) NULL,
  `attempts` TEXT NULL,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`volumeUuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

-- Keep running behaviour: the previous agent put io='native' on every SharedBlock disk. Pin that on each
-- existing SharedBlock primary storage that has no vm.ioMode of its own (an existing row keeps its value).
INSERT INTO `ResourceConfigVO` (`uuid`, `resourceUuid`, `resourceType`, `category`, `name`, `value`, `createDate`, `lastOpDate`)
SELECT REPLACE(UUID(), '-', ''), ps.`uuid`, 'PrimaryStorageVO', 'kvm', 'vm.ioMode', 'native', CURRENT_TIMESTAMP(3), CURRENT_TIMESTAMP(3)
FROM `PrimaryStorageVO` ps
WHERE ps.`type` = 'SharedBlock'
  AND NOT EXISTS (SELECT 1 FROM `ResourceConfigVO` r
                  WHERE r.`resourceUuid` = ps.`uuid` AND r.`category` = 'kvm' AND r.`name` = 'vm.ioMode');
