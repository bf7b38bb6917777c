-- plugin-aio (ZStack module): the io modes libvirt or QEMU refused at a VM's start on a host x primary storage
-- (plugin-aio-core's RefusedIoMode, recognised by DiskIoModes.startFailed in the words of conf/aio/io-mode-rules.yaml's
-- startRefusals), one row per host, storage and mode. Every later decision there reads it through the host's facts
-- (the failed check remembered-refusal) until it is cleared: by an admin (APIClearRefusedIoModeMsg), by a host probe
-- that reports another QEMU or libvirt version where the words' row says versionChange, or by a read-back that finds a
-- disk there running the mode where it says readBack. The rows go with the host and with the primary storage.
-- Idempotent: running it twice changes nothing.

CREATE TABLE IF NOT EXISTS `zstack`.`AioRefusedIoModeVO` (
    `hostUuid` varchar(32) NOT NULL,
    `primaryStorageUuid` varchar(32) NOT NULL,
    `ioMode` varchar(16) NOT NULL COMMENT 'native or io_uring',
    `refusalId` varchar(64) NOT NULL COMMENT 'the id of the words in conf/aio/io-mode-rules.yaml startRefusals',
    `refusedBy` text NOT NULL COMMENT 'QEMU or libvirt',
    `refusalText` text NOT NULL COMMENT 'what they said, as the start''s error has it',
    `volumeUuid` varchar(32) DEFAULT NULL COMMENT 'the volume whose start showed it',
    `vmInstanceUuid` varchar(32) DEFAULT NULL,
    `qemu` varchar(64) DEFAULT NULL COMMENT 'the host''s QEMU version when it refused; null: unknown',
    `libvirt` varchar(64) DEFAULT NULL COMMENT 'the host''s libvirt version when it refused; null: unknown',
    `clearedBy` varchar(128) NOT NULL COMMENT 'comma-separated: admin, and versionChange and/or readBack',
    `refusedAt` datetime(3) NOT NULL,
    PRIMARY KEY (`hostUuid`, `primaryStorageUuid`, `ioMode`),
    CONSTRAINT `fkAioRefusedIoModeVOHostEO` FOREIGN KEY (`hostUuid`) REFERENCES `HostEO` (`uuid`) ON DELETE CASCADE,
    CONSTRAINT `fkAioRefusedIoModeVOPrimaryStorageEO` FOREIGN KEY (`primaryStorageUuid`)
        REFERENCES `PrimaryStorageEO` (`uuid`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
