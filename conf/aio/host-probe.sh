#!/bin/sh
# plugin-aio host probe (POSIX sh). Prints key=value lines about this host's io_uring support; nothing else on stdout.
# Run by the ZStack module at every host connect and reconnect (KvmRunShellMsg, over SSH); an admin may run it by hand:
#   sh host-probe.sh
# Keys (docs/zstack-module.md):
#   kernel=               uname -r
#   kernel.release=       uname -r, as known-bad rules match it (e.g. el9 kernels ship io_uring off)
#   io_uring_disabled=    /proc/sys/kernel/io_uring_disabled (absent: the kernel has no such sysctl)
#   qemu=                 qemu-img's version
#   qemu_io_uring=yes|no  whether qemu-img really read a test image with aio=io_uring (QEMU 8.2-10.1 open it anyway
#                         and warn "falling back to thread pool" when io_uring is unavailable: that is a no)
#   qemu_io_uring_reason= why not (when no)
#   libvirt=              libvirtd's version
#   kvmagent_patch=yes|no whether ZStack's kvmagent here carries plugin-aio's optional hot-plug patch: its vm_plugin.py
#                         (in ZStack's virtualenv, AIO_KVMAGENT_DIR to look elsewhere) reads the patch's addon aioIoMode
#   kvmagent_patch_reason= why not (when no)
# each QEMU call is bounded, so a hung tool never holds the host's connect; the test read goes through the page cache
# (-t writeback): io_uring needs no O_DIRECT, which the temporary folder's filesystem (tmpfs) may refuse
t=""; command -v timeout >/dev/null 2>&1 && t="timeout 20"
echo "kernel=$(uname -r)"
echo "kernel.release=$(uname -r)"
if [ -r /proc/sys/kernel/io_uring_disabled ]; then
  echo "io_uring_disabled=$(cat /proc/sys/kernel/io_uring_disabled)"
fi
if command -v qemu-img >/dev/null 2>&1; then
  echo "qemu=$(qemu-img --version 2>/dev/null | sed -n 's/.*version \([0-9][0-9.]*\).*/\1/p' | head -n 1)"
  dir=$(mktemp -d 2>/dev/null || echo /tmp/aio-probe.$$)
  mkdir -p "$dir"
  img="$dir/probe.img"
  if ! out=$($t qemu-img create -q -f raw "$img" 1M 2>&1); then
    echo "qemu_io_uring=no"
    echo "qemu_io_uring_reason=cannot create a test image in $dir: $(echo "$out" | tr '\n' ' ')"
  elif out=$($t qemu-img bench -f raw -t writeback -i io_uring -c 1 -d 1 "$img" 2>&1); then
    case "$out" in
      *"falling back to thread pool"*)
        echo "qemu_io_uring=no"
        echo "qemu_io_uring_reason=QEMU fell back to its thread pool: $(echo "$out" | grep -i 'io_uring' | head -n 1)" ;;
      *) echo "qemu_io_uring=yes" ;;
    esac
  else
    rc=$?
    echo "qemu_io_uring=no"
    [ "$rc" = 124 ] && [ -n "$t" ] && out="qemu-img bench -i io_uring did not finish within 20 s"
    echo "qemu_io_uring_reason=$(echo "$out" | tr '\n' ' ')"
  fi
  rm -rf "$dir"
else
  echo "qemu_io_uring=no"
  echo "qemu_io_uring_reason=qemu-img is not installed"
fi
lv=$(libvirtd --version 2>/dev/null | sed -n 's/.* \([0-9][0-9.]*\)$/\1/p' | head -n 1)
[ -n "$lv" ] || lv=$(virsh --version 2>/dev/null | head -n 1)
[ -n "$lv" ] && echo "libvirt=$lv"
# the marker is the addon the patch reads (plugin-aio/zstack-module/kvmagent/aio-hotplug-io-mode.patch): the unmodified
# vm_plugin.py never names it
ka="${AIO_KVMAGENT_DIR:-/var/lib/zstack/virtualenv/kvm}"
vp=$(ls "$ka"/lib/python*/site-packages/kvmagent/plugins/vm_plugin.py 2>/dev/null | head -n 1)
if [ -z "$vp" ]; then
  echo "kvmagent_patch=no"
  echo "kvmagent_patch_reason=no kvmagent/plugins/vm_plugin.py under $ka/lib/python*/site-packages"
elif grep -q "aioIoMode" "$vp"; then
  echo "kvmagent_patch=yes"
else
  echo "kvmagent_patch=no"
  echo "kvmagent_patch_reason=$vp does not read the aioIoMode addon"
fi
exit 0
