-- plugin-aio (ZStack module): the stored decision gains the columns both platforms store (plugin-aio-core's
-- DecisionRecord.STORED_COLUMNS): what the host reported it applied, the modes it refused first, and the workload an
-- auto decision optimised for. ZStack's agent reports none of them today, so they stay NULL and the API says so.
-- Idempotent: running it twice changes nothing.

ALTER TABLE `zstack`.`AioVolumeIoModeDecisionVO`
    ADD COLUMN IF NOT EXISTS `appliedIo` varchar(32) DEFAULT NULL COMMENT 'the io attribute the running disk has, as the host reported it',
    ADD COLUMN IF NOT EXISTS `appliedCache` varchar(32) DEFAULT NULL,
    ADD COLUMN IF NOT EXISTS `attempts` text DEFAULT NULL COMMENT 'JSON list of {io, error} refused before appliedIo',
    ADD COLUMN IF NOT EXISTS `optimizedFor` text DEFAULT NULL COMMENT 'JSON of the workload an auto decision optimised for';
