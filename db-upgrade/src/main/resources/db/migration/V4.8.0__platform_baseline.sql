-- The platform's previous release (4.8.0): the tables the aio plugin touches, as they were before it.
-- MySQL syntax (runs unchanged on the embedded H2 in MariaDB mode). Every table has a primary key so a
-- Galera cluster can replicate it. IF NOT EXISTS everywhere: an installation that already has these tables
-- (baselined) keeps them as they are.

CREATE TABLE IF NOT EXISTS `AccountVO` (
  `uuid` VARCHAR(32) NOT NULL,
  `name` VARCHAR(255) NOT NULL,
  `password` VARCHAR(255) NOT NULL,
  `type` VARCHAR(32) NOT NULL,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `lastOpDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`uuid`),
  UNIQUE KEY `ukAccountVOName` (`name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `SessionVO` (
  `uuid` VARCHAR(32) NOT NULL,
  `accountUuid` VARCHAR(32) NOT NULL,
  `expiredDate` DATETIME(3) NOT NULL,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`uuid`),
  KEY `idxSessionVOAccountUuid` (`accountUuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `GlobalConfigVO` (
  `id` BIGINT NOT NULL AUTO_INCREMENT,
  `category` VARCHAR(64) NOT NULL,
  `name` VARCHAR(255) NOT NULL,
  `description` TEXT,
  `defaultValue` TEXT,
  `value` TEXT,
  PRIMARY KEY (`id`),
  UNIQUE KEY `ukGlobalConfigVOCategoryName` (`category`, `name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `ResourceConfigVO` (
  `uuid` VARCHAR(32) NOT NULL,
  `resourceUuid` VARCHAR(32) NOT NULL,
  `resourceType` VARCHAR(64) NOT NULL,
  `category` VARCHAR(64) NOT NULL,
  `name` VARCHAR(255) NOT NULL,
  `value` TEXT,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `lastOpDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`uuid`),
  UNIQUE KEY `ukResourceConfigVO` (`resourceUuid`, `category`, `name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `HostVO` (
  `uuid` VARCHAR(32) NOT NULL,
  `name` VARCHAR(255) NOT NULL,
  `managementIp` VARCHAR(255) NOT NULL,
  `agentPort` INT NOT NULL DEFAULT 7070,
  `status` VARCHAR(32) NOT NULL,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `lastOpDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`uuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `PrimaryStorageVO` (
  `uuid` VARCHAR(32) NOT NULL,
  `name` VARCHAR(255) NOT NULL,
  `type` VARCHAR(64) NOT NULL,
  `url` VARCHAR(2048) NOT NULL,
  `status` VARCHAR(32) NOT NULL,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `lastOpDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`uuid`),
  KEY `idxPrimaryStorageVOType` (`type`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `VmInstanceVO` (
  `uuid` VARCHAR(32) NOT NULL,
  `name` VARCHAR(255) NOT NULL,
  `hostUuid` VARCHAR(32) NULL,
  `state` VARCHAR(32) NOT NULL,
  `memorySize` BIGINT NOT NULL,
  `cpuNum` INT NOT NULL,
  `accountUuid` VARCHAR(32) NOT NULL,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `lastOpDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`uuid`),
  KEY `idxVmInstanceVOHostUuid` (`hostUuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

CREATE TABLE IF NOT EXISTS `VolumeVO` (
  `uuid` VARCHAR(32) NOT NULL,
  `name` VARCHAR(255) NOT NULL,
  `primaryStorageUuid` VARCHAR(32) NOT NULL,
  `vmInstanceUuid` VARCHAR(32) NULL,
  `deviceId` INT NULL,
  `installPath` VARCHAR(2048) NULL,
  `format` VARCHAR(32) NOT NULL,
  `size` BIGINT NOT NULL,
  `actualSize` BIGINT NULL,
  `accountUuid` VARCHAR(32) NOT NULL,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `lastOpDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`uuid`),
  KEY `idxVolumeVOPrimaryStorageUuid` (`primaryStorageUuid`),
  KEY `idxVolumeVOVmInstanceUuid` (`vmInstanceUuid`),
  KEY `idxVolumeVOAccountUuid` (`accountUuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
