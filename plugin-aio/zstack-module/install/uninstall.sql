-- plugin-aio: the database rows the ZStack module owns. install.sh uninstall leaves them in place (a reinstall finds
-- its decisions and overrides again); run this once after uninstalling to remove them for good:
--   mysql -u root -p zstack < uninstall.sql
DROP TABLE IF EXISTS `zstack`.`AioVolumeIoModeDecisionVO`;
DROP TABLE IF EXISTS `zstack`.`AioHostIoFactsVO`;
DROP TABLE IF EXISTS `zstack`.`AioConfigBackupVO`;
DROP TABLE IF EXISTS `zstack`.`AioManagementNodeVO`;
DROP TABLE IF EXISTS `zstack`.`AioRefusedIoModeVO`;
DELETE FROM `zstack`.`ResourceConfigVO`
 WHERE category = 'kvm' AND name IN ('vm.ioMode', 'vm.ioMode.onUnsatisfied', 'vm.ioMode.native.allowFalloc');
-- ZStack deletes GlobalConfigVO rows whose definition is gone at its next boot; this only does it now.
DELETE FROM `zstack`.`GlobalConfigVO`
 WHERE category = 'kvm' AND name IN ('vm.ioMode', 'vm.ioMode.onUnsatisfied', 'vm.ioMode.native.allowFalloc');
-- so that Flyway does not look for the removed upgrade script
DELETE FROM `zstack`.`schema_version` WHERE script IN ('V5.2.1.100__aio_io_mode.sql', 'V5.2.1.101__aio_io_mode_record.sql',
                                               'V5.2.1.102__aio_host_io_facts.sql', 'V5.2.1.103__aio_config_backup.sql',
                                               'V5.2.1.104__aio_nodes.sql');
DELETE FROM `zstack`.`schema_version` WHERE script IN ('V5.2.1.110__aio_read_back.sql', 'V5.2.1.111__aio_refused_io_mode.sql');
