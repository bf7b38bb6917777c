#!/usr/bin/env bash
# Builds the tiny Linux guest used by the real-guest tests and bench (issue 14 item 3), once, cached outside the
# repository: a Debian cloud kernel (apt-get download, no install), an initramfs with busybox-static, the virtio
# modules, test/guest/init and test/guest/aioload.c compiled with gcc -static. Idempotent: a cache whose stamp
# matches the inputs' checksum is kept. Prints the cache directory.
#   AIO_GUEST_DIR (default /var/cache/plugin-aio-guest): where vmlinuz, initrd.gz and the stamp go.
# Needs root for apt-get download into the cache only when the cache is missing; gcc and libc6-dev (libc.a).
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
out=${AIO_GUEST_DIR:-/var/cache/plugin-aio-guest}
stamp=$(cat test/guest/init test/guest/aioload.c bin/lib/setup-guest.sh | sha256sum | cut -c1-16)
if [ -f "$out/stamp" ] && [ "$(cat "$out/stamp")" = "$stamp" ] && [ -f "$out/vmlinuz" ] && [ -f "$out/initrd.gz" ]; then
  echo "$out"; exit 0
fi
if [ "$(id -u)" -ne 0 ] && [ ! -w "$(dirname "$out")" ] && [ ! -w "$out" ]; then
  # Not root: the cache directory and apt need root; say what to run and change nothing (CI runs as root).
  echo "setup-guest: not root, nothing done. Run as root: sudo bash $0 (or set AIO_GUEST_DIR to a writable directory)" >&2
  echo "$out"; exit 0
fi
command -v gcc >/dev/null || apt-get install -y -q gcc libc6-dev >&2
mkdir -p "$out"
work=$(mktemp -d "$out/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"   # apt-get download drops privileges to _apt
cd "$work"
# The newest cloud kernel image package the archive offers (the version moves with point releases).
kpkg=$(apt-cache search --names-only '^linux-image-[0-9.]+-[0-9]+-cloud-amd64$' | cut -d' ' -f1 | sort -V | tail -1)
[ -n "$kpkg" ] || { echo "setup-guest: no linux-image-*-cloud-amd64 package in apt's lists (run apt-get update)" >&2; exit 1; }
apt-get download -q "$kpkg" busybox-static >&2
dpkg -x linux-image-*.deb root
dpkg -x busybox-static_*.deb bb
mkdir -p initrd/bin initrd/mods initrd/dev initrd/proc initrd/sys initrd/tmp
cp bb/bin/busybox initrd/bin/
K=$(echo root/lib/modules/*/kernel/drivers)
for m in virtio/virtio_ring virtio/virtio virtio/virtio_pci_modern_dev virtio/virtio_pci_legacy_dev virtio/virtio_pci block/virtio_blk; do
  f=$K/$m.ko
  [ -f "$f" ] || { [ -f "$f.xz" ] && xz -dc "$f.xz" > "$f"; }
  cp "$f" initrd/mods/
done
cp "$repo/test/guest/init" initrd/init
chmod +x initrd/init
gcc -static -O2 -Wall -o initrd/bin/aioload "$repo/test/guest/aioload.c"
(cd initrd && find . | ../bb/bin/busybox cpio -o -H newc 2>/dev/null | gzip -9 > ../initrd.gz)
cp root/boot/vmlinuz-* "$out/vmlinuz.tmp" && mv "$out/vmlinuz.tmp" "$out/vmlinuz"
cp initrd.gz "$out/initrd.gz.tmp" && mv "$out/initrd.gz.tmp" "$out/initrd.gz"
echo "$kpkg" > "$out/kernel-package"
echo "$stamp" > "$out/stamp"
echo "$out"
