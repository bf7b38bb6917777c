-- plugin-aio (ZStack module): the admin's values of the module's configs, kept where ZStack's boot does not delete
-- them. A management node that boots without the module (a ZStack upgrade's new WAR, a node not yet installed during
-- a rolling install) deletes the GlobalConfigVO rows of configs it has no definition for (GlobalConfigFacadeImpl,
-- persistConfigInXmlButNotInDatabase); the module writes each change an admin makes here and restores it at its
-- next start (AioConfigBackup). liveRowId names the ZStack row the value was read from (GlobalConfigVO.id,
-- ResourceConfigVO.uuid): a row re-created since holds ZStack's default, the same row changed holds a newer value.
-- Idempotent: running it twice changes nothing.

CREATE TABLE IF NOT EXISTS `zstack`.`AioConfigBackupVO` (
    `category` varchar(64) NOT NULL,
    `name` varchar(255) NOT NULL,
    `scope` varchar(32) NOT NULL COMMENT 'global, or the uuid of the resource whose override this is',
    `resourceUuid` varchar(32) DEFAULT NULL COMMENT 'null for a global value; the row goes with its resource',
    `resourceType` varchar(64) DEFAULT NULL,
    `value` text NOT NULL,
    `liveRowId` varchar(64) NOT NULL COMMENT 'GlobalConfigVO.id or ResourceConfigVO.uuid the value was read from',
    `lastOpDate` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    `createDate` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00',
    PRIMARY KEY (`category`, `name`, `scope`),
    CONSTRAINT `fkAioConfigBackupVOResourceVO` FOREIGN KEY (`resourceUuid`) REFERENCES `ResourceVO` (`uuid`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

-- the values already there when this script runs (an installation older than the backup), so that a boot without
-- the module before the module's next start loses nothing; a global value still at its default is no admin's choice
-- (a later ZStack may change the default), so it is not copied
INSERT IGNORE INTO `zstack`.`AioConfigBackupVO` (category, name, scope, resourceUuid, resourceType, value, liveRowId, lastOpDate, createDate)
SELECT g.category, g.name, 'global', NULL, NULL, g.value, CAST(g.id AS CHAR), NOW(), NOW()
FROM `zstack`.`GlobalConfigVO` g
WHERE g.category = 'kvm' AND g.name IN ('vm.ioMode', 'vm.ioMode.onUnsatisfied', 'vm.ioMode.native.allowFalloc')
  AND g.value IS NOT NULL AND g.value <> g.defaultValue;

INSERT IGNORE INTO `zstack`.`AioConfigBackupVO` (category, name, scope, resourceUuid, resourceType, value, liveRowId, lastOpDate, createDate)
SELECT r.category, r.name, r.resourceUuid, r.resourceUuid, r.resourceType, r.value, r.uuid, NOW(), NOW()
FROM `zstack`.`ResourceConfigVO` r
WHERE r.category = 'kvm' AND r.name IN ('vm.ioMode', 'vm.ioMode.onUnsatisfied', 'vm.ioMode.native.allowFalloc')
  AND r.value IS NOT NULL AND EXISTS (SELECT 1 FROM `zstack`.`ResourceVO` rv WHERE rv.uuid = r.resourceUuid);
