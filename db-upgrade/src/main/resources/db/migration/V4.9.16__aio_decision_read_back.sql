-- The aio plugin (4.9.16): a stored decision gains its last read-back, as the ZStack module's does (plugin-aio-core's
-- DecisionRecord.STORED_COLUMNS): what the disk really runs (libvirt's live domain XML and QEMU's log), when that was
-- read, and the one sentence saying how it differs from the decision. This server's own agent reports what each disk
-- got at every start and hot-plug (appliedIo), so it reads nothing back: the columns stay NULL here.
ALTER TABLE `VolumeIoModeDecisionVO` ADD COLUMN IF NOT EXISTS `runningIo` VARCHAR(32) NULL;
ALTER TABLE `VolumeIoModeDecisionVO` ADD COLUMN IF NOT EXISTS `readBackAt` DATETIME(3) NULL;
ALTER TABLE `VolumeIoModeDecisionVO` ADD COLUMN IF NOT EXISTS `disagreement` TEXT NULL;
