#!/bin/sh
# plugin-aio host probe (POSIX sh). Prints key=value lines, nothing else on stdout: every fact the io-mode decision and
# the known-bad rules of conf/aio/io-mode-rules.yaml test, per host and per primary storage path. Run by the ZStack
# module at every connect and reconnect of a KVM host (KvmRunShellMsg over SSH, wrapped by plugin-core's HostScript);
# an admin may run it by hand:
#   sh host-probe.sh [<primaryStorageUuid>=<mountPath> ...]
# Each argument names one primary storage the host mounts and the path its images live under.
#
# Keys (docs/decision.md, "Host probes"; read by plugin-core's HostIoProbe):
#   kernel=                 uname -r
#   kernel.release=         uname -r, as known-bad rules match it (e.g. el9 kernels ship io_uring off)
#   io_uring_disabled=      /proc/sys/kernel/io_uring_disabled (absent: the kernel has no such sysctl)
#   qemu=                   qemu-img's version
#   qemu_io_uring=yes|no    whether qemu-img really read a test image with aio=io_uring (QEMU 8.2-10.1 open it anyway and
#                           warn "falling back to thread pool" when io_uring is unavailable: that is a no)
#   qemu_io_uring_reason=   why not (when no)
#   qemu_native=yes|no      whether qemu-img really read a test image with aio=native (cache none, on the first storage
#                           path that takes O_DIRECT, else the temporary folder)
#   qemu_native_reason=     why not (when no)
#   qemu.linux-aio=true|false  true when qemu-img opened an image with aio=native; false only on QEMU's own words "not
#                           supported in this build"; any other refusal is no evidence (unknown.qemu.linux-aio says it)
#   qemu.liburing=          the liburing soname QEMU's emulator links (ldd), "none" without
#   aio.free=               fs.aio-max-nr - fs.aio-nr: the Linux AIO events a new VM's io_setup may still take
#   io_uring.setup=         io_uring_setup(2) for a one-entry ring, called by this probe's own process (perl or python
#                           ctypes; x86_64 and aarch64): "ok", or the errno's name (EPERM, ENOSYS, ...; E<n> if unnamed)
#   process.seccomp=        disabled|strict|filter: the Seccomp line of this probe's /proc/self/status
#   libvirt.seccomp_sandbox=  seccomp_sandbox in libvirt's qemu.conf (-1, 0, 1; "unset": libvirt's default), the
#                           sandbox libvirt starts QEMU in; it denies no io_uring or Linux AIO call, so no rule tests it
#   os.id=, os.version=     ID and VERSION_ID of /etc/os-release (the distribution)
#   libvirt=                libvirtd's version
#   kvmagent_patch=yes|no   whether ZStack's kvmagent here carries plugin-aio's optional hot-plug patch: its vm_plugin.py
#                           (in ZStack's virtualenv, AIO_KVMAGENT_DIR to look elsewhere) reads the patch's addon aioIoMode
#   kvmagent_patch_reason=  why not (when no)
#   storage.<uuid>.path=           the path given for primary storage <uuid>
#   storage.<uuid>.filesystem=     the type of the mount deepest above the path (/proc/mounts): ext4, xfs, nfs4, btrfs, ...
#   storage.<uuid>.loopBacked=yes|no  whether that mount's source is a loop device (/dev/loopN)
#   storage.<uuid>.directIo=yes|no    whether a file under the path takes O_DIRECT (dd oflag=direct, then iflag=direct)
#   storage.<uuid>.directIoReason=    why not (when no)
#   unknown.<key>=          a fact that could not be gathered, and why (the line of <key> is then absent)
#
# Bounded: every call that may hang (QEMU, and anything that touches a storage path, which may be a stale NFS mount) runs
# in the background and is abandoned, never waited for, after 3 s (bounded below); a storage path that does not answer
# is left after its first call, and storage paths get 10 s in all. The probe takes under a second on a healthy host.
# Files it creates (a 1 MiB image in the temporary folder, one 4 KiB file and one 1 MiB image per storage path, hidden
# names) are removed before it ends.
# Test seams (defaults in brackets): AIO_PROC [/proc] for /proc/sys, /proc/mounts and /proc/self/status;
# AIO_OS_RELEASE [/etc/os-release]; AIO_LIBVIRT_QEMU_CONF [/etc/libvirt/qemu.conf]; AIO_QEMU_EMULATOR (looked at
# first, before ZStack's places); AIO_KVMAGENT_DIR.
proc="${AIO_PROC:-/proc}"
. "$(dirname "$0")/host-lib.sh"  # plugin-aio: tmpd, bounded, oneline (inlined when sent: HostScript)

kr=$(uname -r)
printf '%s\n' "kernel=$kr"
printf '%s\n' "kernel.release=$kr"
if [ -r "$proc/sys/kernel/io_uring_disabled" ]; then
  printf '%s\n' "io_uring_disabled=$(cat "$proc/sys/kernel/io_uring_disabled")"
fi

# ---- per storage path: filesystem, loop backing, O_DIRECT ----
native_dir=""
storage_deadline=$(($(date +%s) + 10))
for arg in "$@"; do
  ps=${arg%%=*}
  path=${arg#*=}
  case "$ps" in
    ''|*[!A-Za-z0-9_-]*|"$arg") printf '%s\n' "warning: ignored argument '$arg' (expected <primaryStorageUuid>=<path>)" >&2; continue ;;
  esac
  printf '%s\n' "storage.$ps.path=$path"
  if [ "$(date +%s)" -ge "$storage_deadline" ]; then
    printf '%s\n' "unknown.storage.$ps.filesystem=the probe's 10 s for storage paths ran out before this one"
    continue
  fi
  bounded 3 readlink -f "$path"
  if [ "$rc" = 124 ]; then
    # a mount that does not answer (a dead NFS server): every further call on it would hang as well
    printf '%s\n' "unknown.storage.$ps.filesystem=$path did not answer within 3 s"
    printf '%s\n' "storage.$ps.directIo=no"
    printf '%s\n' "storage.$ps.directIoReason=$path did not answer within 3 s"
    continue
  fi
  if [ "$rc" = 0 ] && [ -n "$out" ]; then real=$out; else real=$path; fi
  # the deepest mount above the path; /proc/mounts escapes blanks and backslashes in octal
  m=$(awk -v p="$real" '
    function unesc(s) { gsub(/\\040/, " ", s); gsub(/\\011/, "\t", s); gsub(/\\012/, "\n", s); gsub(/\\134/, "\\", s); return s }
    { mp = unesc($2); if (mp == "/" || p == mp || index(p, mp "/") == 1) { if (length(mp) >= best) { best = length(mp); fs = $3; src = $1 } } }
    END { if (fs != "") print fs " " src }' "$proc/mounts" 2>/dev/null)
  if [ -n "$m" ]; then
    printf '%s\n' "storage.$ps.filesystem=${m%% *}"
    case "${m#* }" in /dev/loop[0-9]*) loop=yes ;; *) loop=no ;; esac
    case "${m#* }" in /dev/loop*[!0-9]*) loop=no ;; esac
    printf '%s\n' "storage.$ps.loopBacked=$loop"
  else
    printf '%s\n' "unknown.storage.$ps.filesystem=no mount above $real in $proc/mounts"
  fi
  bounded 3 test -d "$path"
  if [ "$rc" != 0 ]; then
    printf '%s\n' "storage.$ps.directIo=no"
    if [ "$rc" = 124 ]; then printf '%s\n' "storage.$ps.directIoReason=$path $out"
    else printf '%s\n' "storage.$ps.directIoReason=not a directory on this host: $path"; fi
    continue
  fi
  f="$path/.aio-odirect.$$"
  bounded 3 dd if=/dev/zero of="$f" bs=4096 count=1 oflag=direct
  if [ "$rc" = 0 ]; then bounded 3 dd if="$f" of=/dev/null bs=4096 count=1 iflag=direct; fi
  if [ "$rc" = 0 ]; then
    printf '%s\n' "storage.$ps.directIo=yes"
    [ -n "$native_dir" ] || native_dir=$path
  else
    printf '%s\n' "storage.$ps.directIo=no"
    printf '%s\n' "storage.$ps.directIoReason=O_DIRECT refused on $path: $(oneline "$out")"
  fi
  bounded 3 rm -f "$f"
done

# ---- QEMU: version, io_uring and native really used by qemu-img, the liburing the emulator links ----
if command -v qemu-img >/dev/null 2>&1; then
  bounded 3 qemu-img --version
  printf '%s\n' "qemu=$(printf '%s\n' "$out" | sed -n 's/.*version \([0-9][0-9.]*\).*/\1/p' | head -n 1)"
  img="$tmpd/probe.img"
  bounded 3 qemu-img create -q -f raw "$img" 1M
  if [ "$rc" != 0 ]; then
    printf '%s\n' "qemu_io_uring=no"
    printf '%s\n' "qemu_io_uring_reason=cannot create a test image in $tmpd: $(oneline "$out")"
  else
    # through the page cache (-t writeback): io_uring needs no O_DIRECT, which the temporary folder may refuse
    bounded 3 qemu-img bench -f raw -t writeback -i io_uring -c 1 -d 1 "$img"
    if [ "$rc" = 0 ]; then
      case "$out" in
        *"falling back to thread pool"*)
          printf '%s\n' "qemu_io_uring=no"
          printf '%s\n' "qemu_io_uring_reason=QEMU fell back to its thread pool: $(printf '%s\n' "$out" | grep -i 'io_uring' | head -n 1)" ;;
        *) printf '%s\n' "qemu_io_uring=yes" ;;
      esac
    else
      printf '%s\n' "qemu_io_uring=no"
      printf '%s\n' "qemu_io_uring_reason=$(oneline "$out")"
    fi
  fi
  # native needs O_DIRECT (cache none): on the first storage path that took it, else the temporary folder
  nimg="$tmpd/native.img"
  [ -n "$native_dir" ] && nimg="$native_dir/.aio-native.$$.img"
  bounded 3 qemu-img create -q -f raw "$nimg" 1M
  if [ "$rc" = 0 ]; then bounded 3 qemu-img bench -f raw -t none -i native -c 1 -d 1 "$nimg"; fi
  case "$rc:$out" in
    0:*"falling back to thread pool"*)
      printf '%s\n' "qemu_native=no"
      printf '%s\n' "qemu_native_reason=QEMU fell back to its thread pool: $(oneline "$out")"
      printf '%s\n' "unknown.qemu.linux-aio=QEMU fell back to its thread pool, which says nothing of its build" ;;
    0:*)
      printf '%s\n' "qemu_native=yes"
      printf '%s\n' "qemu.linux-aio=true" ;;
    *"not supported in this build"*)
      printf '%s\n' "qemu_native=no"
      printf '%s\n' "qemu_native_reason=$(oneline "$out")"
      printf '%s\n' "qemu.linux-aio=false" ;;
    *)
      printf '%s\n' "qemu_native=no"
      printf '%s\n' "qemu_native_reason=$(oneline "$out")"
      printf '%s\n' "unknown.qemu.linux-aio=qemu-img refused aio=native for another reason than its build: $(oneline "$out")" ;;
  esac
  [ -n "$native_dir" ] && bounded 3 rm -f "$nimg"
else
  printf '%s\n' "qemu_io_uring=no"
  printf '%s\n' "qemu_io_uring_reason=qemu-img is not installed"
  printf '%s\n' "qemu_native=no"
  printf '%s\n' "qemu_native_reason=qemu-img is not installed"
  printf '%s\n' "unknown.qemu.linux-aio=qemu-img is not installed"
fi
# the emulator libvirt starts, where ZStack's agent looks for it (zstacklib qemu.get_path)
emu=""
for q in ${AIO_QEMU_EMULATOR:-} /usr/libexec/qemu-kvm /bin/qemu-kvm "/usr/bin/qemu-system-$(uname -m)"; do
  if [ -x "$q" ]; then emu=$q; break; fi
done
if [ -z "$emu" ]; then
  printf '%s\n' "unknown.qemu.liburing=no QEMU emulator at /usr/libexec/qemu-kvm, /bin/qemu-kvm or /usr/bin/qemu-system-$(uname -m)"
elif ! command -v ldd >/dev/null 2>&1; then
  printf '%s\n' "unknown.qemu.liburing=ldd is not installed"
else
  bounded 3 ldd "$emu"
  if [ "$rc" = 0 ]; then
    so=$(printf '%s\n' "$out" | grep -o 'liburing\.so\.[0-9][0-9]*' | head -n 1)
    printf '%s\n' "qemu.liburing=${so:-none}"
  else
    printf '%s\n' "unknown.qemu.liburing=ldd $emu failed: $(oneline "$out")"
  fi
fi

# ---- the kernel's Linux AIO events, io_uring for this process, its seccomp mode ----
max=$(cat "$proc/sys/fs/aio-max-nr" 2>/dev/null)
nr=$(cat "$proc/sys/fs/aio-nr" 2>/dev/null)
case "$max:$nr" in
  *[!0-9:]*|:*|*:) printf '%s\n' "unknown.aio.free=cannot read $proc/sys/fs/aio-max-nr and aio-nr" ;;
  *) printf '%s\n' "aio.free=$((max - nr))" ;;
esac
# io_uring_setup is syscall 425 on x86_64 and aarch64 (the generic table); a one-entry ring, closed at once
case "$(uname -m)" in
  x86_64|aarch64)
    if command -v perl >/dev/null 2>&1; then
      bounded 3 perl -MPOSIX -e 'my $p = "\0" x 120; my $fd = syscall(425, 1, $p); if ($fd >= 0) { POSIX::close($fd); print "ok\n"; exit 0 } my $e = $! + 0; my ($n) = grep { $!{$_} } sort keys %!; print((defined $n ? $n : "E$e"), "\n")'
    else
      py=$(command -v python3 || command -v python2 || command -v python)
      if [ -n "$py" ]; then
        bounded 3 "$py" -c 'import ctypes,errno,os; l=ctypes.CDLL(None, use_errno=True); l.syscall.restype=ctypes.c_long; b=ctypes.create_string_buffer(120); fd=l.syscall(ctypes.c_long(425), ctypes.c_long(1), b); e=ctypes.get_errno(); print("ok" if fd >= 0 else errno.errorcode.get(e, "E%d" % e)); fd >= 0 and os.close(fd)'
      else
        rc=127; out="neither perl nor python is installed to call io_uring_setup"
      fi
    fi
    case "$rc:$out" in
      0:ok|0:E[A-Z0-9]*) printf '%s\n' "io_uring.setup=$out" ;;
      *) printf '%s\n' "unknown.io_uring.setup=$(oneline "$out")" ;;
    esac ;;
  *) printf '%s\n' "unknown.io_uring.setup=io_uring_setup's number is known for x86_64 and aarch64 only, not $(uname -m)" ;;
esac
sc=$(sed -n 's/^Seccomp:[[:space:]]*//p' "$proc/self/status" 2>/dev/null)
case "$sc" in
  0) printf '%s\n' "process.seccomp=disabled" ;;
  1) printf '%s\n' "process.seccomp=strict" ;;
  2) printf '%s\n' "process.seccomp=filter" ;;
  *) printf '%s\n' "unknown.process.seccomp=no Seccomp line in $proc/self/status" ;;
esac
qc="${AIO_LIBVIRT_QEMU_CONF:-/etc/libvirt/qemu.conf}"
sb=$(sed -n 's/^[[:space:]]*seccomp_sandbox[[:space:]]*=[[:space:]]*\(-*[0-9]*\).*/\1/p' "$qc" 2>/dev/null | tail -n 1)
printf '%s\n' "libvirt.seccomp_sandbox=${sb:-unset}"
osr="${AIO_OS_RELEASE:-/etc/os-release}"
if [ -r "$osr" ]; then
  printf '%s\n' "os.id=$(sed -n 's/^ID=//p' "$osr" | tr -d '"'"'" | head -n 1)"
  printf '%s\n' "os.version=$(sed -n 's/^VERSION_ID=//p' "$osr" | tr -d '"'"'" | head -n 1)"
else
  printf '%s\n' "unknown.os.id=$osr is not readable"
fi

# ---- libvirt, and ZStack's kvmagent ----
lv=$(libvirtd --version 2>/dev/null | sed -n 's/.* \([0-9][0-9.]*\)$/\1/p' | head -n 1)
[ -n "$lv" ] || lv=$(virsh --version 2>/dev/null | head -n 1)
[ -n "$lv" ] && printf '%s\n' "libvirt=$lv"
# the marker is the addon the patch reads (plugin-aio/zstack-module/kvmagent/aio-hotplug-io-mode.patch): the unmodified
# vm_plugin.py never names it
ka="${AIO_KVMAGENT_DIR:-/var/lib/zstack/virtualenv/kvm}"
vp=$(ls "$ka"/lib/python*/site-packages/kvmagent/plugins/vm_plugin.py 2>/dev/null | head -n 1)
if [ -z "$vp" ]; then
  printf '%s\n' "kvmagent_patch=no"
  printf '%s\n' "kvmagent_patch_reason=no kvmagent/plugins/vm_plugin.py under $ka/lib/python*/site-packages"
elif grep -q "aioIoMode" "$vp"; then
  printf '%s\n' "kvmagent_patch=yes"
else
  printf '%s\n' "kvmagent_patch=no"
  printf '%s\n' "kvmagent_patch_reason=$vp does not read the aioIoMode addon"
fi
exit 0
