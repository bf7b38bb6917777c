-- The aio plugin (4.9.11): every volume row gets an ever-growing number from the database on insert, whoever inserts
-- it (this server, another management node, SQL), so a node can tell with one index lookup (MAX) whether volumes were
-- added since it counted them: the volume list's replyWithCount then does not count 100k rows on every page
-- (QueryCounts, docs/performance.md §6). Not mapped by the entity: nothing but the database writes it.
ALTER TABLE `VolumeVO` ADD COLUMN IF NOT EXISTS `insertSeq` BIGINT NOT NULL AUTO_INCREMENT UNIQUE;

-- A host's probed storage paths (one entry per primary storage it can reach) outgrew TEXT's 64 KB at 1,000 storages:
-- adding a host then failed with a 500 (found by the scale bench). MEDIUMTEXT holds 16 MB.
ALTER TABLE `HostIoCapabilitiesVO` MODIFY COLUMN `storagePaths` MEDIUMTEXT NULL;
