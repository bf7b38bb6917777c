#!/usr/bin/env bash
# Baseline for docs/performance.md §6: the same live migration as the agent's /vm/migrate, done by `virsh migrate`
# (io_uring on A -> native on B, 64 MiB guest, 16 MiB preallocated qcow2), N runs. Needs bin/lib/setup-libvirt-b.sh.
set -euo pipefail
N=${1:-5}
B=$(bash "$(dirname "$0")/setup-libvirt-b.sh" uri)
W=$(mktemp -d /var/tmp/aio-virsh-mig-XXXX); trap 'rm -rf "$W"' EXIT
qemu-img create -q -f qcow2 -o preallocation=full "$W/d.qcow2" 16M
for i in $(seq "$N"); do
  dom=virsh-mig-$$-$i
  cat > "$W/src.xml" <<XML
<domain type='kvm'><name>$dom</name><memory unit='MiB'>64</memory><vcpu>1</vcpu>
<os><type arch='x86_64' machine='pc'>hvm</type></os><devices>
<disk type='file' device='disk'><driver name='qemu' type='qcow2' cache='none' io='io_uring'/>
<source file='$W/d.qcow2'/><target dev='vda' bus='virtio'/></disk>
<video><model type='none'/></video><memballoon model='none'/></devices></domain>
XML
  virsh -q define "$W/src.xml" >/dev/null && virsh -q start "$dom" >/dev/null
  virsh dumpxml --migratable "$dom" | sed "s/io='io_uring'/io='native'/" > "$W/dest.xml"
  t0=$(date +%s%N)
  virsh migrate --live --unsafe --persistent --undefinesource --xml "$W/dest.xml" --migrateuri tcp://127.0.0.1 "$dom" "$B"
  t1=$(date +%s%N)
  echo "run $i: $(( (t1 - t0) / 1000000 )) ms"
  virsh -q -c "$B" destroy "$dom" >/dev/null; virsh -q -c "$B" undefine "$dom" >/dev/null
done
