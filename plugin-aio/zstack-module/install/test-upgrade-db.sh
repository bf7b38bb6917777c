#!/usr/bin/env bash
# The module's upgrade scripts through ZStack's own upgrade path, on a database that already holds a cloud.
#
# A private MariaDB (127.0.0.1:$AIO_UPGRADE_DB_PORT, default 33316; never 3306, nor the testbed's 33306), started and
# stopped by this test in a folder of its own. ZStack's database is deployed by ZStack's build/deploydb.sh with
# ZStack's own scripts only (a ZStack 5.2 cloud before the module), then given zones, primary storages (SharedBlock
# among them), volumes and configs. The module's scripts are then applied the way `zstack-ctl upgrade_db` applies them
# (zstack-utility f7b496e82, zstackctl/ctl.py UpgradeDbCmd.run):
#     flyway migrate -outOfOrder=true -user=U -password=P -url=jdbc:mysql://H:P/zstack -locations=filesystem:WEB-INF/classes/db/upgrade/
# with ZStack's flyway-3.2.1 (the testbed's flyway-3.2.1p: the same with its drivers on the class path) and a
# WEB-INF/classes/db/upgrade/ that holds ZStack's scripts and the module's, as install.sh leaves it. It checks:
#   1. the upgrade applies the module's scripts, pins SharedBlock storages, keeps an admin's override, copies the
#      configs into AioConfigBackupVO; a second upgrade_db finds nothing to do, no checksum error, the same database;
#   2. a ZStack newer than the module's scripts (a dummy V5.3.0 ZStack script) still upgrades, after them and before
#      them (the module's scripts then apply out of order);
#   3. what the module leaves in the database after `install.sh uninstall` does not stop ZStack: an upgrade_db
#      without the module's scripts (uninstalled, or ZStack's installer upgrading before install.sh runs again)
#      succeeds and keeps the module's rows; uninstall.sql removes them and upgrade_db still succeeds; no Java source of
#      ZStack names the module's tables (its boot reads only what it maps, and the module's GlobalConfigVO rows, which
#      it deletes: AioIoModeConfigSurvivalCase).
# Usage: test-upgrade-db.sh ZSTACK_SOURCE_DIR   (the unpacked ZStack source; build.sh's $ZSTACK_HOME/src)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
MODULE="$(cd "$HERE/.." && pwd)"
SRC="${1:?usage: test-upgrade-db.sh ZSTACK_SOURCE_DIR}"
PORT="${AIO_UPGRADE_DB_PORT:-33316}"
PASS="aio-upgrade-test"
case "$PORT" in 3306|33306) echo "test-upgrade-db.sh: refusing port $PORT (the system's or the testbed's database)" >&2; exit 2;; esac
[ -x "$SRC/conf/tools/flyway-3.2.1p/flyway" ] || { echo "test-upgrade-db.sh: no $SRC/conf/tools/flyway-3.2.1p (run the testbed's build.sh)" >&2; exit 2; }
MYSQLD="$(command -v mariadbd || command -v mysqld || ls /usr/sbin/mariadbd /usr/sbin/mysqld 2>/dev/null | head -1)"
INSTALLDB="$(command -v mariadb-install-db || command -v mysql_install_db)"
MYSQL_BIN="$(command -v mysql)"
W="$(mktemp -d)"
checks=0
ok() { checks=$((checks + 1)); }
fail() { echo "test-upgrade-db.sh: FAILED: $*" >&2; exit 1; }
step() { echo "[test-upgrade-db] $*"; }

stop_db() {
  if [ -f "$W/db/mariadbd.pid" ]; then
    local pid; pid="$(cat "$W/db/mariadbd.pid")"
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
  fi
}
trap 'stop_db; rm -rf "$W"' EXIT

# ---- a private MariaDB ----
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "test-upgrade-db.sh: something already listens on 127.0.0.1:$PORT (set AIO_UPGRADE_DB_PORT)" >&2; exit 2
fi
mkdir -p "$W/db"
USEROPT=(); [ "$(id -u)" = 0 ] && USEROPT=(--user=root)
"$INSTALLDB" --no-defaults "${USEROPT[@]}" --datadir="$W/db/data" --auth-root-authentication-method=normal \
  --skip-test-db > "$W/db/install.log" 2>&1 || { cat "$W/db/install.log" >&2; fail "mariadb-install-db"; }
nohup "$MYSQLD" --no-defaults "${USEROPT[@]}" --datadir="$W/db/data" --socket="$W/db/sock" --port="$PORT" \
  --bind-address=127.0.0.1 --pid-file="$W/db/mariadbd.pid" --log-error="$W/db/err.log" --skip-log-bin \
  --innodb-buffer-pool-size=128M > /dev/null 2>&1 &
for _ in $(seq 1 60); do mysqladmin --no-defaults --protocol=socket --socket="$W/db/sock" -uroot ping >/dev/null 2>&1 && break; sleep 1; done
"$MYSQL_BIN" --no-defaults --protocol=socket --socket="$W/db/sock" -uroot \
  -e "ALTER USER root@localhost IDENTIFIED BY '$PASS'; FLUSH PRIVILEGES;" \
  || fail "MariaDB did not come up on 127.0.0.1:$PORT ($(tail -3 "$W/db/err.log"))"
step "MariaDB on 127.0.0.1:$PORT ($W/db)"

# every client call goes to the private database only: deploydb.sh runs `mysql` from PATH
mkdir -p "$W/bin"
printf '#!/bin/sh\nexec "%s" --no-defaults "$@"\n' "$MYSQL_BIN" > "$W/bin/mysql"; chmod +x "$W/bin/mysql"
sql() { "$MYSQL_BIN" --no-defaults -uroot -p"$PASS" --host=127.0.0.1 --port="$PORT" -N -B zstack -e "$1"; }

# ---- ZStack's own tree, as deploydb.sh expects it (build/, conf/db, conf/tools/flyway-3.2.1p), in a copy ----
zstack_tree() {   # DIR [extra ZStack script...]: ZStack's scripts only, never the module's
  local t="$1"; shift
  mkdir -p "$t/build" "$t/conf/db/upgrade" "$t/conf/tools"
  cp "$SRC/build/deploydb.sh" "$t/build/"
  cp "$SRC"/conf/db/V0.6__schema*.sql "$t/conf/db/"
  find "$SRC/conf/db/upgrade" -maxdepth 1 -type f ! -name '*__aio_*' -exec cp {} "$t/conf/db/upgrade/" \;
  for f in "$@"; do cp "$f" "$t/conf/db/upgrade/"; done
  cp -r "$SRC/conf/tools/flyway-3.2.1p" "$t/conf/tools/"
}
deploy() {   # DIR: a new ZStack database, as ZStack's installer and its test framework make it
  PATH="$W/bin:$PATH" flywayver=3.2.1p bash "$1/build/deploydb.sh" root "$PASS" 127.0.0.1 "$PORT" > "$W/deploy.log" 2>&1 \
    || { tail -20 "$W/deploy.log" >&2; fail "deploydb.sh"; }
}
# WEB-INF/classes/db/upgrade/ of a management node: ZStack's scripts, plus the module's when installed
webinf_upgrade() {   # DIR with_module(0|1) [extra ZStack script...]
  local d="$1" with="$2"; shift 2
  rm -rf "$d"; mkdir -p "$d"
  find "$SRC/conf/db/upgrade" -maxdepth 1 -type f ! -name '*__aio_*' -exec cp {} "$d/" \;
  [ "$with" = 1 ] && cp "$MODULE"/conf/db/upgrade/*.sql "$d/"
  for f in "$@"; do cp "$f" "$d/"; done
}
FLYWAY="$W/tree/conf/tools/flyway-3.2.1p/flyway"
upgrade_db() {   # LOCATIONS_DIR LOG: UpgradeDbCmd.run's flyway call (schema_version exists: no baseline)
  sql "update schema_version set checksum = '-1450264399' where script = 'V3.6.0__schema.sql' and checksum = '-111240960'"
  bash "$FLYWAY" migrate -outOfOrder=true -user=root -password="$PASS" \
    -url="jdbc:mysql://127.0.0.1:$PORT/zstack" -locations="filesystem:$1" > "$2" 2>&1
}
dump() {   # the data and schema of zstack, without what changes by itself (dates, flyway's timings)
  mysqldump --no-defaults -uroot -p"$PASS" --host=127.0.0.1 --port="$PORT" --skip-dump-date --skip-extended-insert \
    --ignore-table=zstack.schema_version zstack | sed 's/AUTO_INCREMENT=[0-9]* //'
  sql "SELECT version, script, checksum, success FROM schema_version ORDER BY installed_rank"
}

# ---- a ZStack 5.2 cloud without the module ----
step "deploying ZStack's database with ZStack's deploydb.sh (ZStack's scripts only)"
zstack_tree "$W/tree"
deploy "$W/tree"
[ "$(sql "SELECT COUNT(*) FROM schema_version WHERE script LIKE '%__aio_%'")" = 0 ] || fail "the module's scripts ran at deploy"
sql "SELECT MAX(installed_rank) FROM schema_version" >/dev/null

cloud() {   # what an existing installation holds: storages (SharedBlock among them), volumes, configs
  sql "INSERT INTO ZoneEO (uuid, name, state, type, createDate, lastOpDate) VALUES ('z0000000000000000000000000000001', 'zone', 'Enabled', 'zstack', NOW(), NOW());
  INSERT INTO ResourceVO (uuid, resourceName, resourceType, concreteResourceType) VALUES
    ('ps00000000000000000000000000sbk1', 'sblk-1', 'PrimaryStorageVO', 'org.zstack.header.storage.primary.PrimaryStorageVO'),
    ('ps00000000000000000000000000sbk2', 'sblk-2', 'PrimaryStorageVO', 'org.zstack.header.storage.primary.PrimaryStorageVO'),
    ('ps0000000000000000000000000local', 'local', 'PrimaryStorageVO', 'org.zstack.header.storage.primary.PrimaryStorageVO'),
    ('v0000000000000000000000000000001', 'root', 'VolumeVO', 'org.zstack.header.volume.VolumeVO'),
    ('v0000000000000000000000000000002', 'data', 'VolumeVO', 'org.zstack.header.volume.VolumeVO');
  INSERT INTO PrimaryStorageEO (uuid, zoneUuid, name, url, mountPath, type, state, status, createDate, lastOpDate) VALUES
    ('ps00000000000000000000000000sbk1', 'z0000000000000000000000000000001', 'sblk-1', 'sharedblock://vg1', '/dev/vg1', 'SharedBlock', 'Enabled', 'Connected', NOW(), NOW()),
    ('ps00000000000000000000000000sbk2', 'z0000000000000000000000000000001', 'sblk-2', 'sharedblock://vg2', '/dev/vg2', 'SharedBlock', 'Enabled', 'Connected', NOW(), NOW()),
    ('ps0000000000000000000000000local', 'z0000000000000000000000000000001', 'local', '/local', '/local', 'LocalStorage', 'Enabled', 'Connected', NOW(), NOW());
  INSERT INTO VolumeEO (uuid, name, primaryStorageUuid, installPath, type, status, size, actualSize, format, state, createDate, lastOpDate) VALUES
    ('v0000000000000000000000000000001', 'root', 'ps00000000000000000000000000sbk1', '/dev/vg1/v1', 'Root', 'Ready', 10737418240, 10737418240, 'qcow2', 'Enabled', NOW(), NOW()),
    ('v0000000000000000000000000000002', 'data', 'ps0000000000000000000000000local', '/local/v2.qcow2', 'Data', 'Ready', 10737418240, 1073741824, 'qcow2', 'Enabled', NOW(), NOW());
  -- ZStack's own configs, and an admin's io mode already on sblk-2 (set before, e.g. by an earlier install)
  INSERT INTO GlobalConfigVO (name, description, category, defaultValue, value) VALUES
    ('vm.cacheMode', 'cache', 'kvm', 'none', 'none'),
    ('vm.ioMode', 'io mode', 'kvm', 'threads', 'native'),
    ('vm.ioMode.onUnsatisfied', 'policy', 'kvm', 'fallback', 'fallback');
  INSERT INTO ResourceConfigVO (uuid, name, description, category, value, resourceUuid, resourceType, createDate, lastOpDate) VALUES
    ('rc000000000000000000000000000001', 'vm.ioMode', 'set by the admin', 'kvm', 'threads', 'ps00000000000000000000000000sbk2', 'PrimaryStorageVO', NOW(), NOW()),
    ('rc000000000000000000000000000002', 'qcow2.allocation', 'set by the admin', 'localStoragePrimaryStorage', 'full', 'ps0000000000000000000000000local', 'PrimaryStorageVO', NOW(), NOW());"
}
cloud || fail "cannot insert the cloud's rows"
[ "$(sql "SELECT COUNT(*) FROM VolumeVO")" = 2 ] && [ "$(sql "SELECT COUNT(*) FROM PrimaryStorageVO WHERE type = 'SharedBlock'")" = 2 ] \
  || fail "the cloud's rows are not visible through ZStack's views"; ok

# ---- 1. upgrade_db with the module installed, twice ----
step "upgrade_db with the module's scripts in WEB-INF/classes/db/upgrade"
webinf_upgrade "$W/upgrade" 1
upgrade_db "$W/upgrade" "$W/upgrade1.log" || { cat "$W/upgrade1.log" >&2; fail "the first upgrade_db failed"; }
n_module="$(ls "$MODULE"/conf/db/upgrade/*.sql | wc -l)"
[ "$(sql "SELECT COUNT(*) FROM schema_version WHERE script LIKE '%__aio_%' AND success = 1")" = "$n_module" ] \
  || fail "not every module script is applied: $(sql "SELECT script, success FROM schema_version WHERE script LIKE '%__aio_%'")"; ok
for t in AioVolumeIoModeDecisionVO AioHostIoFactsVO AioConfigBackupVO AioManagementNodeVO AioRefusedIoModeVO; do
  [ "$(sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'zstack' AND table_name = '$t'")" = 1 ] || fail "no table $t"
done; ok
# SharedBlock without an override is pinned to native; the admin's threads on sblk-2 stays; LocalStorage gets nothing
[ "$(sql "SELECT value FROM ResourceConfigVO WHERE name = 'vm.ioMode' AND resourceUuid = 'ps00000000000000000000000000sbk1'")" = native ] || fail "sblk-1 not pinned"
[ "$(sql "SELECT value FROM ResourceConfigVO WHERE name = 'vm.ioMode' AND resourceUuid = 'ps00000000000000000000000000sbk2'")" = threads ] || fail "the admin's sblk-2 override changed"
[ "$(sql "SELECT COUNT(*) FROM ResourceConfigVO WHERE name = 'vm.ioMode' AND resourceUuid = 'ps0000000000000000000000000local'")" = 0 ] || fail "LocalStorage got an override"; ok
# the values already there are copied (V5.2.1.103): the global one and both storages'
[ "$(sql "SELECT value FROM AioConfigBackupVO WHERE name = 'vm.ioMode' AND scope = 'global'")" = native ] || fail "the global value is not copied"
[ "$(sql "SELECT COUNT(*) FROM AioConfigBackupVO WHERE name = 'vm.ioMode' AND resourceType = 'PrimaryStorageVO'")" = 2 ] || fail "the storages' values are not copied"
[ "$(sql "SELECT COUNT(*) FROM AioConfigBackupVO WHERE name = 'vm.ioMode.onUnsatisfied'")" = 0 ] || fail "a global value at its default was copied"; ok
[ "$(sql "SELECT COUNT(*) FROM VolumeVO")" = 2 ] || fail "volumes changed"; ok
dump > "$W/after1.dump"
cksum1="$(sql "SELECT script, checksum FROM schema_version WHERE script LIKE '%__aio_%' ORDER BY script")"

step "upgrade_db again"
upgrade_db "$W/upgrade" "$W/upgrade2.log" || { cat "$W/upgrade2.log" >&2; fail "the second upgrade_db failed"; }
# (not any "checksum": ZStack's beforeValidate.sql callback names its procedure update_schema_checksum)
grep -qiE "checksum mismatch|validate failed" "$W/upgrade2.log" && fail "the second upgrade_db reports a checksum problem: $(grep -iE "checksum mismatch|validate failed" "$W/upgrade2.log")"
grep -q "Schema \`zstack\` is up to date" "$W/upgrade2.log" || fail "the second upgrade_db did something: $(tail -5 "$W/upgrade2.log")"
dump > "$W/after2.dump"
diff "$W/after1.dump" "$W/after2.dump" > "$W/dump.diff" || { head -20 "$W/dump.diff" >&2; fail "the second upgrade_db changed the database"; }; ok
# flyway's own record of the released scripts: a script whose bytes changed fails validation here
[ "$(sql "SELECT script, checksum FROM schema_version WHERE script LIKE '%__aio_%' ORDER BY script")" = "$cksum1" ] || fail "checksums moved"; ok

# ---- 2. a newer ZStack after the module, and before it ----
printf -- '-- a stand-in for a ZStack release newer than the module scripts\nCREATE TABLE IF NOT EXISTS `zstack`.`ZStackNewerStandInVO` (`id` int NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB;\n' > "$W/V5.3.0__schema.sql"
step "a ZStack 5.3.0 script after the module's"
webinf_upgrade "$W/upgrade" 1 "$W/V5.3.0__schema.sql"
upgrade_db "$W/upgrade" "$W/upgrade3.log" || { cat "$W/upgrade3.log" >&2; fail "upgrade_db with ZStack 5.3.0's script failed"; }
[ "$(sql "SELECT success FROM schema_version WHERE version = '5.3.0'")" = 1 ] || fail "ZStack 5.3.0's script was not applied"; ok

step "ZStack 5.3.0 deployed first, the module's scripts afterwards (out of order)"
rm -rf "$W/tree"; zstack_tree "$W/tree" "$W/V5.3.0__schema.sql"
deploy "$W/tree"
cloud
webinf_upgrade "$W/upgrade" 1 "$W/V5.3.0__schema.sql"
upgrade_db "$W/upgrade" "$W/upgrade4.log" || { cat "$W/upgrade4.log" >&2; fail "upgrade_db of the module after ZStack 5.3.0 failed"; }
[ "$(sql "SELECT COUNT(*) FROM schema_version WHERE script LIKE '%__aio_%' AND success = 1")" = "$n_module" ] || fail "the module's scripts did not apply after 5.3.0"
[ "$(sql "SELECT MAX(version) FROM schema_version WHERE script = 'V5.3.0__schema.sql'")" = 5.3.0 ] || fail "5.3.0 lost"
grep -q "out of order" "$W/upgrade4.log" || fail "flyway did not say it applied them out of order: $(tail -5 "$W/upgrade4.log")"
[ "$(sql "SELECT value FROM ResourceConfigVO WHERE name = 'vm.ioMode' AND resourceUuid = 'ps00000000000000000000000000sbk1'")" = native ] || fail "sblk-1 not pinned out of order"; ok

# ---- 3. after install.sh uninstall: the module's files are gone, its rows stay ----
step "upgrade_db after uninstall (the module's scripts gone from WEB-INF)"
webinf_upgrade "$W/upgrade" 0 "$W/V5.3.0__schema.sql"
# (also what ZStack's own installer does on an upgrade, `zstack-installer -u`: upgrade_db right after unpacking the
# new WAR, before install.sh can put the module's scripts back)
upgrade_db "$W/upgrade" "$W/upgrade5.log" || { cat "$W/upgrade5.log" >&2; fail "upgrade_db with the module's applied scripts missing locally failed"; }
[ "$(sql "SELECT COUNT(*) FROM schema_version WHERE script LIKE '%__aio_%' AND success = 1")" = "$n_module" ] || fail "upgrade_db dropped the module's schema_version rows"
[ "$(sql "SELECT COUNT(*) FROM AioConfigBackupVO")" -gt 0 ] || fail "the copies are gone"; ok
"$MYSQL_BIN" --no-defaults -uroot -p"$PASS" --host=127.0.0.1 --port="$PORT" zstack < "$MODULE/install/uninstall.sql" \
  || fail "uninstall.sql failed"
upgrade_db "$W/upgrade" "$W/upgrade6.log" || { cat "$W/upgrade6.log" >&2; fail "upgrade_db after uninstall.sql failed"; }
[ "$(sql "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'zstack' AND table_name LIKE 'Aio%'")" = 0 ] || fail "uninstall.sql left tables"
[ "$(sql "SELECT COUNT(*) FROM schema_version WHERE script LIKE '%__aio_%'")" = 0 ] || fail "uninstall.sql left schema_version rows"; ok
# ZStack's boot reads no table it does not map: none of its Java names the module's tables (checked in its source)
if grep -rlE "Aio(VolumeIoModeDecision|HostIoFacts|ConfigBackup|ManagementNode|RefusedIoMode)VO" --include=*.java "$SRC" 2>/dev/null | grep -q .; then
  fail "ZStack's source names a module table"
fi; ok

echo "test-upgrade-db.sh: $checks passed, 0 failed"
