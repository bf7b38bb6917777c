-- plugin-aio (ZStack module): the management nodes that run the module, one row per node with the module's version,
-- written when the node joins (ManagementNodeChangeListener.iJoin, right after ZStack writes its ManagementNodeVO row)
-- and removed when ZStack reports the node gone (nodeLeft) or deletes its ManagementNodeVO row. A node of the cluster
-- without a row here does not run the module: a VM start it handles is not decided (docs/zstack-module.md).
-- Idempotent: running it twice changes nothing.

CREATE TABLE IF NOT EXISTS `zstack`.`AioManagementNodeVO` (
    `managementNodeUuid` varchar(32) NOT NULL,
    `hostName` varchar(255) DEFAULT NULL,
    `moduleVersion` varchar(64) NOT NULL COMMENT 'the version of the module jar the node runs',
    `builtForZStack` varchar(64) DEFAULT NULL COMMENT 'the ZStack version that jar was built for',
    `lastOpDate` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    `createDate` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00',
    PRIMARY KEY (`managementNodeUuid`),
    CONSTRAINT `fkAioManagementNodeVOManagementNodeVO` FOREIGN KEY (`managementNodeUuid`)
        REFERENCES `ManagementNodeVO` (`uuid`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
