-- plugin-aio (ZStack module): the stored decision gains its last read-back (plugin-aio-core's DecisionRecord
-- .STORED_COLUMNS): what the disk really runs, read from libvirt's live domain XML and the VM's QEMU log after each
-- start, hot-plug and migration and at the host's reconnect (conf/aio/read-back.sh), when that was read, and the one
-- sentence saying how it differs from the decision. NULL until the disk's first read-back.
-- Idempotent: running it twice changes nothing.

ALTER TABLE `zstack`.`AioVolumeIoModeDecisionVO`
    ADD COLUMN IF NOT EXISTS `runningIo` varchar(32) DEFAULT NULL COMMENT 'what the disk runs as last read back',
    ADD COLUMN IF NOT EXISTS `readBackAt` datetime(3) DEFAULT NULL COMMENT 'when it was last read back',
    ADD COLUMN IF NOT EXISTS `disagreement` text DEFAULT NULL COMMENT 'how what it runs differs from the decision';
