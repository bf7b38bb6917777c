#!/usr/bin/env bash
# The tests' real 3-node MariaDB Galera cluster on loopback (ports and directories: bin/lib/galera.sh).
#   setup-galera.sh            make it run: reuse a running size-3 cluster, else build it (as root: installs
#                              galera-4, mariadb-server and rsync from Debian when missing); ~12 s
#   setup-galera.sh start N    (re)start node N so it rejoins the running cluster (IST when it can)
#   setup-galera.sh kill N     SIGKILL node N (the tests' fault)
#   setup-galera.sh status     one line per node: port, state, cluster size
#   setup-galera.sh teardown   stop the three nodes (by their checked pid files) and remove their directories
# Not root: checks only and says what to run (the nodes run as user mysql from root-owned setup).
set -euo pipefail
. "$(dirname "$0")/galera.sh"
say() { echo "setup-galera: $*" >&2; }

case "${1:-up}" in
  start)
    n=$2; t=$(now); log=$(node_dir "$n")/error.log; from=$(($(wc -l <"$log" 2>/dev/null || echo 0) + 1))
    start_node "$n"
    how=$(tail -n +"$from" "$log" | sed -n 's/.*rsync \(IST\|SST\) completed on joiner.*/\1/p' | tail -1)
    echo "node$n Synced in $(since "$t")s by ${how:-none}; cluster size $(status_of "$n" wsrep_cluster_size)"
    exit 0 ;;
  kill) stop_node "$2" KILL; exit 0 ;;
  status)
    for n in 1 2 3; do
      echo "node$n port $(node_port "$n") $(node_alive "$n" && echo "$(status_of "$n" wsrep_local_state_comment) size=$(status_of "$n" wsrep_cluster_size)" || echo down)"
    done
    exit 0 ;;
  teardown)
    t=$(now)
    for n in 1 2 3; do stop_node "$n" TERM & done; wait
    for n in 1 2 3; do
      if node_alive "$n"; then say "node$n still running"; exit 1; fi
      for p in $(pgrep -x rsync 2>/dev/null); do   # an rsync SST daemon left behind runs with this node's dir
        tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q "$(node_dir "$n")/" && kill "$p" 2>/dev/null
      done
      rm -rf "$(node_dir "$n")"
    done
    say "torn down in $(since "$t")s"; exit 0 ;;
  up) ;;
  *) echo "usage: $0 [up|start N|kill N|status|teardown]" >&2; exit 2 ;;
esac

if node_alive 1 && node_alive 2 && node_alive 3 && [ "$(status_of 1 wsrep_cluster_size)" = 3 ]; then
  say "reusing the running cluster on 127.0.0.1:$(node_port 1)-$(node_port 3)"; exit 0
fi
if [ "$(id -u)" != 0 ]; then
  say "no Galera cluster on 127.0.0.1:$(node_port 1)-$(node_port 3); run as root: sudo bash $0"; exit 0
fi
missing=()
for p in galera-4 mariadb-server mariadb-client rsync; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  say "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
for n in 1 2 3; do stop_node "$n" TERM; done   # a half-built cluster from an interrupted run
for n in 1 2 3; do
  for p in $(node_port "$n") $(node_gport "$n") $(($(node_gport "$n") + 1)) $(($(node_gport "$n") + 2)); do
    if ss -Htln "sport = :$p" | grep -q .; then say "port $p is in use; set AIO_GALERA_PORT / AIO_GALERA_GCOMM"; exit 1; fi
  done
done
T0=$(now)
for n in 1 2 3; do init_node "$n"; done
start_node 1 --wsrep-new-cluster
start_node 2
start_node 3
size=$(status_of 1 wsrep_cluster_size)
[ "$size" = 3 ] || { say "wsrep_cluster_size=$size, expected 3"; exit 1; }
# the test account, created once on node 1 and replicated (DDL/DCL run in total order on every node)
sql 1 -e "CREATE USER IF NOT EXISTS 'aio'@'127.0.0.1' IDENTIFIED BY 'aio'; GRANT ALL PRIVILEGES ON *.* TO 'aio'@'127.0.0.1'"
got=$(sql 3 -e "SET SESSION wsrep_sync_wait=1; SELECT COUNT(*) FROM mysql.global_priv WHERE User='aio'")
[ "$got" = 1 ] || { say "the account created on node1 is not on node3"; exit 1; }
say "cluster up on 127.0.0.1:$(node_port 1)-$(node_port 3) (size $size) in $(since "$T0")s"
