-- plugin-aio (ZStack module): each volume's observed workload, one row per volume, written by the module's workload
-- sampling (conf/aio/host-sample.sh, one short call per connected KVM host per kvm/vm.ioMode.workload.sampleInterval)
-- with plugin-aio-core's fold (WorkloadFold, the standalone server's): the fold's state (the last raw counters, the QEMU
-- they came from, the time-decayed sums) and the profile it describes, each one line of text (WorkloadText). The row
-- goes with the volume. Idempotent: running it twice changes nothing.

CREATE TABLE IF NOT EXISTS `zstack`.`AioVolumeWorkloadVO` (
    `volumeUuid` varchar(32) NOT NULL,
    `profile` text DEFAULT NULL COMMENT 'the time-decayed profile (WorkloadText.profile); null before any request was seen',
    `sampledAt` timestamp NULL DEFAULT NULL COMMENT 'the host clock at the last sample',
    `counters` text DEFAULT NULL COMMENT 'the fold state the next sample continues from (WorkloadText.state)',
    `lastOpDate` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
    PRIMARY KEY (`volumeUuid`),
    CONSTRAINT `fkAioVolumeWorkloadVOVolumeEO` FOREIGN KEY (`volumeUuid`) REFERENCES `VolumeEO` (`uuid`) ON DELETE CASCADE
) ENGINE=InnoDB DEFAULT CHARSET=utf8;
