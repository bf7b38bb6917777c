-- ZStack's QuotaVO: per-account limits, set by the admin (UpdateQuota). A platform installation that already has
-- the table keeps it and its rows as they are (vm.num, volume.capacity and the platform's other quotas).
CREATE TABLE IF NOT EXISTS `QuotaVO` (
  `id` BIGINT NOT NULL AUTO_INCREMENT,
  `name` VARCHAR(255) NOT NULL,
  `identityUuid` VARCHAR(32) NOT NULL,
  `identityType` VARCHAR(255) NOT NULL,
  `value` BIGINT NOT NULL,
  `lastOpDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  `createDate` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`id`),
  KEY `idxQuotaVOIdentityUuidName` (`identityUuid`, `name`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
