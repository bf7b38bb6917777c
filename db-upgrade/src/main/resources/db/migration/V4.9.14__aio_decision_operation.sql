-- The aio plugin (4.9.14): a stored decision says which operation applied it (start, attach or migrate), as the ZStack
-- module's does: one record on both platforms (plugin-aio-core's DecisionRecord.STORED_COLUMNS). Existing rows get NULL:
-- decided before the column existed; the next start, attach or migration of the volume fills it in.
ALTER TABLE `VolumeIoModeDecisionVO` ADD COLUMN IF NOT EXISTS `operation` VARCHAR(16) NULL;
