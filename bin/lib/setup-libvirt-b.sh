#!/usr/bin/env bash
# A second KVM "host" on this machine for live-migration tests: libvirtd + virtlogd in a private mount namespace
# (recipe and pitfalls: ../shared/research/live-migration/README.md). Idempotent: a daemon already answering is
# reused. `teardown` stops only the daemons whose pid files are ours and that live outside the root mount namespace.
# (migration_address cannot be 127.0.0.1 in qemu.conf: callers pass --migrateuri tcp://127.0.0.1.) URI (`uri`): qemu+unix:///system?socket=$AIO_LIBVIRT_B_DIR/run/libvirt-sock. Loopback only:
# migration streams go to tcp://127.0.0.1 ports 49400-49499.
set -euo pipefail
D=${AIO_LIBVIRT_B_DIR:-/var/tmp/aio-libvirt-b}
# libvirt refuses a migration to a host with the same UUID: the second host has its own, fixed so tests can name it.
HOST_UUID=${AIO_LIBVIRT_B_UUID:-6d1c0b6e-0000-4000-8000-00000000beef}
URI="qemu+unix:///system?socket=$D/run/libvirt-sock"
log() { echo "setup-libvirt-b: $*" >&2; }
answers() { virsh -q -c "$URI" uri >/dev/null 2>&1; }
ours() { # pid file exists, process alive and NOT in our (root) mount namespace
  local f=$1 pid; [ -f "$f" ] || return 1; pid=$(cat "$f")
  kill -0 "$pid" 2>/dev/null && [ "$(readlink /proc/"$pid"/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ]
}

case "${1:-up}" in
uri) echo "$URI"; exit 0 ;;
status) answers && echo "up $URI" || echo "down"; exit 0 ;;
teardown)
  [ -S "$D/run/libvirt-sock" ] && for dom in $(virsh -q -c "$URI" list --name 2>/dev/null); do
    virsh -q -c "$URI" destroy "$dom" >/dev/null 2>&1 || true
  done
  for f in "$D"/run/libvirtd.pid "$D"/run/virtlogd.pid "$D"/run/qemu/*.pid; do
    ours "$f" || continue; pid=$(cat "$f"); kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  done
  rm -rf "$D"; log "stopped"; exit 0 ;;
up) ;;
*) echo "usage: $0 [up|teardown|status|uri]" >&2; exit 2 ;;
esac

if [ "$(id -u)" -ne 0 ]; then
  echo "setup-libvirt-b: not root, nothing done. Run as root: sudo bash $0"; exit 0
fi
if answers; then log "already answers on $URI"; exit 0; fi
command -v libvirtd >/dev/null || { log "libvirtd missing: run bin/lib/setup-libvirt.sh first"; exit 1; }
# stale state of a daemon that died: start clean (never copy /etc/libvirt/qemu/*.xml: other hosts' domains)
rm -rf "$D"; mkdir -p "$D"/{run,lib,cache,log,etc/qemu}
cp /etc/libvirt/libvirt.conf /etc/libvirt/libvirt-admin.conf "$D/etc/" 2>/dev/null || true
cp -a /etc/libvirt/nwfilter "$D/etc/" 2>/dev/null || true
cat > "$D/etc/libvirtd.conf" <<CONF
host_uuid = "$HOST_UUID"
log_outputs = "3:file:/var/log/libvirt/libvirtd.log"
CONF
cat > "$D/etc/qemu.conf" <<'CONF'
user = "root"
group = "root"
# stay out of the shared cgroup tree of the system libvirtd
cgroup_controllers = [ ]
migration_port_min = 49400
migration_port_max = 49499
CONF
cp -a /var/cache/libvirt/qemu "$D/cache/" 2>/dev/null || true   # capabilities cache: ready in 0.1 s, not 4 s
# both daemons need pid files inside the new /run/libvirt, or they fight over the system daemons' ones
unshare --mount --propagation private -- /bin/bash -euc "
  mount --bind $D/run   /run/libvirt
  mount --bind $D/lib   /var/lib/libvirt
  mount --bind $D/cache /var/cache/libvirt
  mount --bind $D/log   /var/log/libvirt
  mount --bind $D/etc   /etc/libvirt
  virtlogd -d -p /run/libvirt/virtlogd.pid
  libvirtd -d -p /run/libvirt/libvirtd.pid
"
for _ in $(seq 300); do answers && { log "answers on $URI (host uuid $HOST_UUID)"; exit 0; }; sleep 0.1; done
log "the second libvirtd did not answer on $URI within 30 s; its log: $D/log/libvirtd.log"; exit 1
