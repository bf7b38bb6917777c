-- The aio plugin (4.9.4): ZStack's query API and asynchronous job protocol.
-- Indexes for what list queries filter and page on: every list is ordered by (createDate, uuid) unless the caller
-- sorts, a tenant's lists are restricted to its accountUuid, and names and states are the usual filters.
-- AioApiJobVO holds calls sent with X-Job-UUID so that any management node can answer their polls.
-- Idempotent like 4.9.0: an interrupted upgrade re-runs to the same end state.

CREATE INDEX IF NOT EXISTS `idxVolumeVOCreateDateUuid` ON `VolumeVO` (`createDate`, `uuid`);
CREATE INDEX IF NOT EXISTS `idxVolumeVOAccountCreateDate` ON `VolumeVO` (`accountUuid`, `createDate`, `uuid`);
CREATE INDEX IF NOT EXISTS `idxVolumeVOStorageCreateDate` ON `VolumeVO` (`primaryStorageUuid`, `createDate`, `uuid`);
CREATE INDEX IF NOT EXISTS `idxVolumeVOName` ON `VolumeVO` (`name`);
CREATE INDEX IF NOT EXISTS `idxVmInstanceVOCreateDateUuid` ON `VmInstanceVO` (`createDate`, `uuid`);
CREATE INDEX IF NOT EXISTS `idxVmInstanceVOAccountCreateDate` ON `VmInstanceVO` (`accountUuid`, `createDate`, `uuid`);
CREATE INDEX IF NOT EXISTS `idxVmInstanceVOState` ON `VmInstanceVO` (`state`);
CREATE INDEX IF NOT EXISTS `idxVmInstanceVOName` ON `VmInstanceVO` (`name`);
CREATE INDEX IF NOT EXISTS `idxHostVOCreateDateUuid` ON `HostVO` (`createDate`, `uuid`);
CREATE INDEX IF NOT EXISTS `idxHostVOManagementIp` ON `HostVO` (`managementIp`);
CREATE INDEX IF NOT EXISTS `idxPrimaryStorageVOCreateDateUuid` ON `PrimaryStorageVO` (`createDate`, `uuid`);
CREATE INDEX IF NOT EXISTS `idxResourceConfigVOCreateDateUuid` ON `ResourceConfigVO` (`createDate`, `uuid`);
CREATE INDEX IF NOT EXISTS `idxResourceConfigVOTypeName` ON `ResourceConfigVO` (`resourceType`, `category`, `name`);

CREATE TABLE IF NOT EXISTS `AioApiJobVO` (
  `uuid` VARCHAR(64) NOT NULL,
  `accountUuid` VARCHAR(32) NULL,
  `apiName` VARCHAR(2048) NOT NULL,
  `state` VARCHAR(32) NOT NULL,
  `httpStatus` INT NULL,
  `result` MEDIUMTEXT NULL,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `lastOpDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`uuid`),
  KEY `idxAioApiJobVOCreateDate` (`createDate`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
