-- TEST ONLY (bin/lib/zstack-cases.sh's "uninstalled" run; never shipped): what a management node that ran plugin-aio
-- leaves in the database after `install.sh uninstall` without uninstall.sql, beside the module's own tables (its
-- scripts V5.2.1.100-104 run before this one): the admin's global values and the module's copies of them. ZStack's
-- first boot without the module finds these rows with no definition behind them.
INSERT INTO `zstack`.`GlobalConfigVO` (name, description, category, defaultValue, value) VALUES
  ('vm.ioMode', 'left by plugin-aio', 'kvm', 'threads', 'native'),
  ('vm.ioMode.onUnsatisfied', 'left by plugin-aio', 'kvm', 'fallback', 'fail'),
  ('vm.ioMode.native.allowFalloc', 'left by plugin-aio', 'kvm', 'false', 'true');
INSERT INTO `zstack`.`AioConfigBackupVO` (category, name, scope, resourceUuid, resourceType, value, liveRowId, lastOpDate, createDate)
SELECT g.category, g.name, 'global', NULL, NULL, g.value, CAST(g.id AS CHAR), NOW(), NOW()
FROM `zstack`.`GlobalConfigVO` g WHERE g.category = 'kvm' AND g.name LIKE 'vm.ioMode%';
