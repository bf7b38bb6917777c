-- plugin-aio (ZStack module): the io-mode benchmark of a host x primary storage for one image kind (issue 35), one row
-- each, the newest only: plugin-core's StorageBenchmark as stored (StorageBenchmark.restore(hostUuid,
-- primaryStorageUuid, imageKind, takenAt, outcome, note, benchLines)). benchLines are host-bench.sh's own lines, one a
-- run, plus a skipped= line per mode the host did not allow; the core reads them back through the same parser. Written
-- by RunIoModeBenchmark (an admin, or the schedule kvm/vm.ioMode.benchmark.intervalHours); shown by
-- QueryIoModeBenchmark; read by auto. The row goes with its host or its storage. Idempotent.

CREATE TABLE IF NOT EXISTS `zstack`.`AioStorageBenchmarkVO` (
    `hostUuid` varchar(32) NOT NULL,
    `primaryStorageUuid` varchar(32) NOT NULL,
    `imageKind` varchar(32) NOT NULL COMMENT 'the scratch image kind measured: qcow2-full, qcow2-metadata, raw-falloc, ...',
    `outcome` varchar(32) NOT NULL COMMENT 'COMPLETE, BUDGET_SPENT, CANCELLED, REFUSED or FAILED (plugin-core BenchOutcome)',
    `note` text DEFAULT NULL COMMENT 'why it ended as it did; null: complete without a word',
    `benchLines` mediumtext DEFAULT NULL COMMENT 'the bench lines, one per line of text',
    `takenAt` varchar(64) DEFAULT NULL COMMENT 'ISO-8601 UTC, when its first run started',
    `createDate` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00',
    `lastOpDate` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    PRIMARY KEY (`hostUuid`, `primaryStorageUuid`, `imageKind`),
    CONSTRAINT `fkAioStorageBenchmarkVOHostEO` FOREIGN KEY (`hostUuid`) REFERENCES `HostEO` (`uuid`) ON DELETE CASCADE,
    CONSTRAINT `fkAioStorageBenchmarkVOPrimaryStorageEO` FOREIGN KEY (`primaryStorageUuid`) REFERENCES `PrimaryStorageEO` (`uuid`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
