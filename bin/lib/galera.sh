#!/usr/bin/env bash
# Helpers for the tests' 3-node MariaDB Galera cluster on loopback (source me). Recipe and measurements:
# ../shared/research/galera/. Node N (1..3): SQL 127.0.0.1:$((AIO_GALERA_PORT+N)), gcomm $((AIO_GALERA_GCOMM+10N)),
# IST gcomm+1, SST (rsync daemon) gcomm+2. Defaults 3341-3343 and 4640/4650/4660: apart from the shared MariaDB on
# 3306 and the research recipe's 3311-3313. Everything lives under $AIO_GALERA_DIR/nodeN; clients use --no-defaults
# so nothing here reads /etc/mysql/my.cnf (that belongs to the server on 3306).
AIO_GALERA_DIR=${AIO_GALERA_DIR:-/tmp/aio-galera-ci}
AIO_GALERA_PORT=${AIO_GALERA_PORT:-3340}
AIO_GALERA_GCOMM=${AIO_GALERA_GCOMM:-4630}
AIO_GALERA_SUSPECT_TIMEOUT=${AIO_GALERA_SUSPECT_TIMEOUT:-PT5S}
GALERA_USER=${GALERA_USER:-mysql}

node_dir()  { echo "$AIO_GALERA_DIR/node$1"; }
node_port() { echo $((AIO_GALERA_PORT + $1)); }
node_gport(){ echo $((AIO_GALERA_GCOMM + 10 * $1)); }
node_sock() { echo "$(node_dir "$1")/mysqld.sock"; }
node_pid()  { cat "$(node_dir "$1")/mysqld.pid" 2>/dev/null || true; }
cluster_address() { echo "gcomm://127.0.0.1:$(node_gport 1),127.0.0.1:$(node_gport 2),127.0.0.1:$(node_gport 3)"; }
sql()       { local n=$1; shift; mariadb --no-defaults -S "$(node_sock "$n")" -uroot -N -B "$@"; }
status_of() { sql "$1" -e "SHOW GLOBAL STATUS LIKE '$2'" 2>/dev/null | cut -f2; }
now()       { date +%s.%N; }
since()     { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }

# true when node N's pid file names a live mariadbd started with this node's config
node_alive() {
  local pid; pid=$(node_pid "$1")
  [ -n "$pid" ] && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "--defaults-file=$(node_dir "$1")/my.cnf"
}

write_cnf() { # N
  local n=$1 d g; d=$(node_dir "$n"); g=$(node_gport "$n")
  cat >"$d/my.cnf" <<CNF
[mysqld]
user                     = $GALERA_USER
datadir                  = $d/data
socket                   = $d/mysqld.sock
pid-file                 = $d/mysqld.pid
log-error                = $d/error.log
bind-address             = 127.0.0.1
port                     = $(node_port "$n")
skip-name-resolve
character-set-server     = utf8mb4
collation-server         = utf8mb4_general_ci
performance_schema       = OFF
innodb_buffer_pool_size  = 64M
innodb_log_file_size     = 48M
innodb_flush_log_at_trx_commit = 2
binlog_format            = ROW
default_storage_engine   = InnoDB
innodb_autoinc_lock_mode = 2
max_connections          = 200

wsrep_on                 = ON
wsrep_provider           = /usr/lib/galera/libgalera_smm.so
wsrep_cluster_name       = aio_galera_tests
wsrep_cluster_address    = $(cluster_address)
wsrep_node_name          = node$n
wsrep_node_address       = 127.0.0.1:$g
wsrep_node_incoming_address = 127.0.0.1:$(node_port "$n")
wsrep_sst_method         = rsync
wsrep_sst_receive_address = 127.0.0.1:$((g + 2))
wsrep_slave_threads      = 2
wsrep_provider_options   = "gmcast.listen_addr=tcp://127.0.0.1:$g;ist.recv_addr=127.0.0.1:$((g + 1));gcache.size=64M;evs.suspect_timeout=$AIO_GALERA_SUSPECT_TIMEOUT"
CNF
}

init_node() { # N: fresh datadir with system tables (no wsrep while installing), and the test account aio/aio
  local n=$1 d; d=$(node_dir "$n")
  rm -rf "$d"; mkdir -p "$d/data"
  write_cnf "$n"
  chown -R "$GALERA_USER": "$d"
  mariadb-install-db --no-defaults --user="$GALERA_USER" --datadir="$d/data" \
      --auth-root-authentication-method=socket --skip-test-db >"$d/install.log" 2>&1 \
    || { cat "$d/install.log" >&2; return 1; }
}

# After a crash (SIGKILL) grastate.dat says seqno -1; without the real position the node asks for a full SST.
# Like galera_recovery under systemd: read the position InnoDB committed (mariadbd --wsrep-recover) and pass it
# as --wsrep-start-position so the donor can send only the missing writesets (IST from its gcache).
recovered_position() { # N -> uuid:seqno or nothing
  local n=$1 d; d=$(node_dir "$n")
  grep -q '^seqno: *-1' "$d/data/grastate.dat" 2>/dev/null || return 0
  [ -d "$d/data/mysql" ] || return 0
  mariadbd --defaults-file="$d/my.cnf" --wsrep-recover --log-error="$d/recover.log" </dev/null >/dev/null 2>&1 || true
  sed -n 's/.*WSREP: Recovered position: *\([0-9a-f-]*:-\{0,1\}[0-9]*\).*/\1/p' "$d/recover.log" | tail -1
}

start_node() { # N [extra mariadbd args...]: start in the background, wait until Synced; a mariadbd that exits
  # during the start is tried again twice, then its log is shown (no waiting out the timeout on a dead process)
  local n=$1; shift; local d pos pid attempt; d=$(node_dir "$n")
  pos=$(recovered_position "$n")
  if [ -n "$pos" ]; then echo "node$n: recovered position $pos" >&2; set -- "$@" --wsrep-start-position="$pos"; fi
  for attempt in 1 2 3; do
    setsid mariadbd --defaults-file="$d/my.cnf" "$@" </dev/null >>"$d/stdout.log" 2>&1 &
    pid=$!
    local deadline=$((SECONDS + ${GALERA_START_TIMEOUT:-180}))
    until [ "$(status_of "$n" wsrep_local_state_comment)" = Synced ] && [ "$(status_of "$n" wsrep_ready)" = ON ]; do
      if ! kill -0 "$pid" 2>/dev/null; then echo "node$n: mariadbd exited during start (attempt $attempt)" >&2; continue 2; fi
      if [ $SECONDS -ge $deadline ]; then echo "node$n: not Synced after ${GALERA_START_TIMEOUT:-180}s" >&2; tail -30 "$d/error.log" >&2; return 1; fi
      sleep 0.2
    done
    return 0
  done
  tail -30 "$d/error.log" >&2; return 1
}

# Stops node N by the PID in its pid file, after checking that PID really is this node's mariadbd.
stop_node() { # N [signal]
  local n=$1 sig=${2:-TERM} pid; pid=$(node_pid "$n")
  node_alive "$n" || return 0
  kill -"$sig" "$pid"
  for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}
