-- plugin-aio: the database rows the ZStack module owns. install.sh uninstall leaves them in place (a reinstall finds
-- its decisions and overrides again); run this once after uninstalling to remove them for good:
--   mysql -u root -p zstack < uninstall.sql
DROP TABLE IF EXISTS `zstack`.`AioVolumeIoModeDecisionVO`;
DROP TABLE IF EXISTS `zstack`.`AioHostIoFactsVO`;
DROP TABLE IF EXISTS `zstack`.`AioConfigBackupVO`;
DROP TABLE IF EXISTS `zstack`.`AioManagementNodeVO`;
DROP TABLE IF EXISTS `zstack`.`AioRefusedIoModeVO`;
DROP TABLE IF EXISTS `zstack`.`AioStorageBenchmarkVO`;
DROP TABLE IF EXISTS `zstack`.`AioVolumeWorkloadVO`;
DELETE FROM `zstack`.`ResourceConfigVO`
 WHERE category = 'kvm' AND name IN ('vm.ioMode', 'vm.ioMode.onUnsatisfied', 'vm.ioMode.native.allowFalloc');
-- ZStack deletes GlobalConfigVO rows whose definition is gone at its next boot; this only does it now.
DELETE FROM `zstack`.`GlobalConfigVO`
 WHERE category = 'kvm' AND name IN ('vm.ioMode', 'vm.ioMode.onUnsatisfied', 'vm.ioMode.native.allowFalloc',
                                     'vm.ioMode.workload.sampleInterval');
-- so that Flyway does not look for the removed upgrade script
DELETE FROM `zstack`.`schema_version` WHERE script IN ('V5.2.1.100__aio_io_mode.sql', 'V5.2.1.101__aio_io_mode_record.sql',
                                               'V5.2.1.102__aio_host_io_facts.sql', 'V5.2.1.103__aio_config_backup.sql',
                                               'V5.2.1.104__aio_nodes.sql');
-- and every later script of the module (V5.2.1.110 read-back, V5.2.1.112 benchmarks, ...), by its name's shape
DELETE FROM `zstack`.`schema_version` WHERE script LIKE 'V5.2.1.1%\_\_aio\_%.sql';
DELETE FROM `zstack`.`GlobalConfigVO` WHERE category = 'kvm' AND name = 'vm.ioMode.benchmark.intervalHours';
