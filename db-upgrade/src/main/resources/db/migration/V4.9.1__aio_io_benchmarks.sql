-- The aio plugin (4.9.1): the io-mode benchmark of each host × primary storage (qemu-img bench through the
-- agent), which auto uses to prefer the measured fastest mode among those whose checks pass. One row per
-- host × primary storage: the latest run replaces the previous one. Idempotent like 4.9.0.

CREATE TABLE IF NOT EXISTS `HostIoBenchmarkVO` (
  `hostUuid` VARCHAR(32) NOT NULL,
  `primaryStorageUuid` VARCHAR(32) NOT NULL,
  `path` VARCHAR(1024) NOT NULL,
  `complete` TINYINT(1) NOT NULL DEFAULT 0,
  `note` TEXT NULL,
  `qemuImg` VARCHAR(255) NULL,
  `budgetSeconds` INT NOT NULL,
  `durationMillis` BIGINT NOT NULL,
  `cells` MEDIUMTEXT NOT NULL,
  `takenAt` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (`hostUuid`, `primaryStorageUuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
