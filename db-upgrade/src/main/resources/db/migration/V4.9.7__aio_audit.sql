-- The aio plugin (4.9.7): the audit trail. One row per recorded change (config changes, host add/reconnect,
-- benchmark runs, VM start/stop/migrate, account creation) written in the same transaction as the change, and one
-- per failed login. Idempotent like 4.9.0.

CREATE TABLE IF NOT EXISTS `AuditVO` (
  `uuid` VARCHAR(32) NOT NULL,
  `accountUuid` VARCHAR(32) NULL,
  `accountName` VARCHAR(255) NULL,
  `action` VARCHAR(64) NOT NULL,
  `resourceType` VARCHAR(64) NULL,
  `resourceUuid` VARCHAR(32) NULL,
  `resourceName` VARCHAR(255) NULL,
  `oldValue` TEXT NULL,
  `newValue` TEXT NULL,
  `success` TINYINT(1) NOT NULL DEFAULT 1,
  `error` TEXT NULL,
  `clientIp` VARCHAR(64) NULL,
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`uuid`),
  KEY `idxAuditVOcreateDate` (`createDate`),
  KEY `idxAuditVOresourceUuid` (`resourceUuid`),
  KEY `idxAuditVOaccountName` (`accountName`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
