#!/usr/bin/env bash
# Start a real libvirtd + QEMU on a machine without systemd (Debian 12), idempotently.
# Recipe: ../shared/research/real-libvirt-and-deps.md. Safe to run again: every step checks first.
set -euo pipefail

# btrfs-progs, e2fsprogs: the agent's RealLoopStorageTest makes filesystems on loop devices it probes
PKGS=(libvirt0 libvirt-clients libvirt-daemon libvirt-daemon-driver-qemu qemu-system-x86 qemu-utils btrfs-progs e2fsprogs)
URI=qemu:///system

log() { echo "setup-libvirt: $*" >&2; }

if [ "$(id -u)" -ne 0 ]; then
  # Not root: starting daemons and editing /etc needs root; say what to run and change nothing.
  echo "setup-libvirt: not root, nothing done. Run as root: sudo bash $0"
  exit 0
fi

# 1. Packages (only the missing ones; apt-get update only when the package lists are empty).
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing ${missing[*]}"
  if [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v -e lock -e partial)" ]; then
    apt-get update -q
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; }
fi

# 2. Users and groups: libvirtd exits silently when libvirt-qemu does not exist.
getent group kvm >/dev/null || groupadd --system kvm
getent group libvirt-qemu >/dev/null || groupadd --system libvirt-qemu
getent passwd libvirt-qemu >/dev/null || useradd --system -g libvirt-qemu -G kvm -d /var/lib/libvirt -s /usr/sbin/nologin libvirt-qemu

# 3. QEMU runs as root so it can open images anywhere (temp dirs of tests, /var/tmp) and /dev/kvm.
CONF=/etc/libvirt/qemu.conf
mkdir -p /etc/libvirt
touch "$CONF"
if ! grep -q '^# aio: run QEMU as root' "$CONF"; then
  printf '\n# aio: run QEMU as root\nuser = "root"\ngroup = "root"\n' >> "$CONF"
fi

# 4. Daemons: virtlogd before libvirtd (libvirtd needs it for the QEMU log).
# Their log and state directories may be missing when the package was installed without its postinst run.
mkdir -p /var/log/libvirt/qemu /var/lib/libvirt/qemu /var/cache/libvirt/qemu /run/libvirt
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
if ! alive /run/virtlogd.pid; then
  log "starting virtlogd"
  virtlogd -d
fi
if ! alive /run/libvirtd.pid; then
  log "starting libvirtd"
  libvirtd -d
fi

# 5. Wait until it answers (about 8 s the first time while it probes QEMU).
for _ in $(seq 1 60); do
  if virsh -c "$URI" version >/dev/null 2>&1; then
    log "libvirtd answers on $URI"
    exit 0
  fi
  sleep 1
done
log "libvirtd did not answer on $URI within 60 s"
virsh -c "$URI" version || true
exit 1
