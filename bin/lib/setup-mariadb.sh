#!/usr/bin/env bash
# Makes a MariaDB server answer on 127.0.0.1:3306 with a test account aio/aio that may create databases.
# As root: installs mariadb-server from Debian's packages when absent, starts it when not running.
# Not root: checks only, and says what to run.
set -euo pipefail

answers() { mysql --protocol=tcp -h127.0.0.1 -P3306 -uaio -paio -e 'SELECT 1' >/dev/null 2>&1; }

if answers; then echo "setup-mariadb: MariaDB answers on 127.0.0.1:3306 as aio"; exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "setup-mariadb: MariaDB does not answer as aio/aio on 127.0.0.1:3306; run this script as root once" >&2
  exit 0
fi
if ! command -v mariadbd >/dev/null 2>&1 && [ ! -x /usr/sbin/mariadbd ]; then
  echo "setup-mariadb: installing mariadb-server"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mariadb-server mariadb-client >/dev/null
fi
if ! mysqladmin ping >/dev/null 2>&1; then
  echo "setup-mariadb: starting mariadbd"
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql
  for _ in $(seq 1 60); do mysqladmin ping >/dev/null 2>&1 && break; sleep 0.5; done
fi
# root reaches the server through the unix socket on a plain Debian install; create the TCP test account there
mysql -uroot <<'SQL'
CREATE USER IF NOT EXISTS 'aio'@'127.0.0.1' IDENTIFIED BY 'aio';
CREATE USER IF NOT EXISTS 'aio'@'localhost' IDENTIFIED BY 'aio';
GRANT ALL PRIVILEGES ON *.* TO 'aio'@'127.0.0.1';
GRANT ALL PRIVILEGES ON *.* TO 'aio'@'localhost';
FLUSH PRIVILEGES;
SQL
answers && echo "setup-mariadb: MariaDB ready (aio/aio on 127.0.0.1:3306)"
