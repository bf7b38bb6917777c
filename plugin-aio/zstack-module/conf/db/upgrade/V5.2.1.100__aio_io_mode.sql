-- plugin-aio (ZStack module): the io-mode decision applied to each volume, and the upgrade's pin of SharedBlock.
-- Version 5.2.1.100: after ZStack 5.2.1's own script; ZStack migrates with outOfOrder, so a later ZStack upgrade
-- still applies its own scripts. Idempotent: running it twice changes nothing.

CREATE TABLE IF NOT EXISTS `zstack`.`AioVolumeIoModeDecisionVO` (
    `volumeUuid` varchar(32) NOT NULL,
    `vmInstanceUuid` varchar(32) DEFAULT NULL,
    `hostUuid` varchar(32) DEFAULT NULL,
    `operation` varchar(16) NOT NULL COMMENT 'start or attach',
    `requested` varchar(16) NOT NULL,
    `source` varchar(32) NOT NULL COMMENT 'VolumeVO, PrimaryStorageVO or global',
    `effective` varchar(32) DEFAULT NULL COMMENT 'null when refused',
    `refused` tinyint(1) NOT NULL DEFAULT 0,
    `checks` text NOT NULL COMMENT 'JSON list of {mode, check, passed, message}',
    `reason` text NOT NULL,
    `lastOpDate` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    `createDate` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00',
    PRIMARY KEY (`volumeUuid`),
    CONSTRAINT `fkAioVolumeIoModeDecisionVOVolumeEO` FOREIGN KEY (`volumeUuid`)
        REFERENCES `VolumeEO` (`uuid`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- ZStack's agent hard-codes io='native' for SharedBlock volumes. Keep that on every SharedBlock primary storage that
-- exists at install time (the global default is threads); an admin's own override is left as it is.
INSERT INTO `zstack`.`ResourceConfigVO` (uuid, name, description, category, value, resourceUuid, resourceType, lastOpDate, createDate)
SELECT REPLACE(UUID(), '-', ''), 'vm.ioMode', 'pinned by plugin-aio install: SharedBlock volumes kept io=native', 'kvm',
       'native', ps.uuid, 'PrimaryStorageVO', NOW(), NOW()
FROM `zstack`.`PrimaryStorageVO` ps
WHERE ps.type = 'SharedBlock'
  AND NOT EXISTS (SELECT 1 FROM `zstack`.`ResourceConfigVO` rc
                  WHERE rc.resourceUuid = ps.uuid AND rc.category = 'kvm' AND rc.name = 'vm.ioMode');
