-- The aio plugin (4.9.8): live migration. While a VM is Migrating its row names the destination host, so that
-- after a crash of the node doing it the tracker can ask BOTH hosts which one really runs the domain (a VM may not
-- stay Migrating after a restart, contract §6). NULL whenever the VM is not being migrated. Idempotent like 4.9.0.

ALTER TABLE `VmInstanceVO` ADD COLUMN IF NOT EXISTS `migrateHostUuid` VARCHAR(32) NULL;
