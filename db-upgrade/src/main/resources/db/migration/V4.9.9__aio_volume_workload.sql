-- The aio plugin (4.9.9): each volume's observed workload (issue 14). ONE row per volume, not a time series: the
-- last cumulative block counters of its disk (the baseline of the next delta) with the QEMU they came from
-- (hostUuid, libvirt domainId), and the time-decayed sums the profile is read from. An auto decision that weighed
-- the workload stores it in optimizedFor (JSON).

CREATE TABLE IF NOT EXISTS `VolumeWorkloadVO` (
  `volumeUuid` VARCHAR(32) NOT NULL,
  `hostUuid` VARCHAR(32) NULL,
  `domainId` BIGINT NOT NULL DEFAULT 0,
  `rdReqs` BIGINT NOT NULL DEFAULT 0,
  `rdBytes` BIGINT NOT NULL DEFAULT 0,
  `rdTimesNs` BIGINT NOT NULL DEFAULT 0,
  `wrReqs` BIGINT NOT NULL DEFAULT 0,
  `wrBytes` BIGINT NOT NULL DEFAULT 0,
  `wrTimesNs` BIGINT NOT NULL DEFAULT 0,
  `lastAtMillis` BIGINT NOT NULL DEFAULT 0,
  `sumRdReqs` DOUBLE NOT NULL DEFAULT 0,
  `sumRdBytes` DOUBLE NOT NULL DEFAULT 0,
  `sumRdSeconds` DOUBLE NOT NULL DEFAULT 0,
  `sumWrReqs` DOUBLE NOT NULL DEFAULT 0,
  `sumWrBytes` DOUBLE NOT NULL DEFAULT 0,
  `sumWrSeconds` DOUBLE NOT NULL DEFAULT 0,
  `sumSeconds` DOUBLE NOT NULL DEFAULT 0,
  `sampledSeconds` DOUBLE NOT NULL DEFAULT 0,
  `sampledAt` DATETIME(3) NULL,
  PRIMARY KEY (`volumeUuid`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;

ALTER TABLE `VolumeIoModeDecisionVO` ADD COLUMN IF NOT EXISTS `optimizedFor` TEXT NULL;
