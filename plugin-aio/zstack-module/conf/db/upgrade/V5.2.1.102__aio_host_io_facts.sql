-- plugin-aio (ZStack module): what the host probe (conf/aio/host-probe.sh, run over SSH at every host connect and
-- reconnect) printed, one row per host; the decision reads it through plugin-aio-core's HostIoProbe. The raw lines are
-- kept, so a later parser (new probe keys) reads what was probed. Idempotent: running it twice changes nothing.

CREATE TABLE IF NOT EXISTS `zstack`.`AioHostIoFactsVO` (
    `hostUuid` varchar(32) NOT NULL,
    `probeOutput` text DEFAULT NULL COMMENT 'the key=value lines the probe printed; null when it failed',
    `probeFailure` text DEFAULT NULL COMMENT 'why the probe gave no output (SSH, timeout, exit code); null when it ran',
    `lastOpDate` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    `createDate` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00',
    PRIMARY KEY (`hostUuid`),
    CONSTRAINT `fkAioHostIoFactsVOHostEO` FOREIGN KEY (`hostUuid`) REFERENCES `HostEO` (`uuid`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
