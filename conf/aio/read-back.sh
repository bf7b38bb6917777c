#!/bin/sh
# plugin-aio read-back (POSIX sh): what each disk of running VMs really runs, in libvirt's and QEMU's own formats. One
# call per host per operation (a start, a hot-plug, a migration, a host's reconnect), sent by the ZStack module through
# KvmRunShellMsg (plugin-core's HostScript) and read by plugin-core's ReadBack; an admin may run it by hand:
#   sh read-back.sh [<vmUuid> ...]        (no argument: every running domain)
# For each VM (its libvirt domain is named by its uuid), between marker lines that neither format can hold:
#   --- aio domain <name> <state> ---   then `virsh dumpxml <name>`: the live domain XML, what QEMU was told (each
#                                        <disk>'s <serial> is its volume's uuid, <driver io=... cache=...> its mode)
#   --- aio log <name> ---              then /var/log/libvirt/qemu/<name>.log from the last "starting up" line (the
#                                        current run; at most 64 KiB): where QEMU 8.2-10.1 write that a disk's io_uring
#                                        "falls back to thread pool"
#   --- aio error <name>: <why> ---     the VM could not be read (no such domain, virsh did not answer)
# Bounded: each virsh and log call is abandoned after 5 s (bounded below); nothing is written on the host.
# Test seams: AIO_VIRSH_URI (virsh -c; default: virsh's own), AIO_QEMU_LOG_DIR [/var/log/libvirt/qemu].
logs="${AIO_QEMU_LOG_DIR:-/var/log/libvirt/qemu}"
. "$(dirname "$0")/host-lib.sh"  # plugin-aio: tmpd, bounded, oneline (inlined when sent: HostScript)
virsh_() {
  if [ -n "${AIO_VIRSH_URI:-}" ]; then virsh -q -c "$AIO_VIRSH_URI" "$@"; else virsh -q "$@"; fi
}

if [ $# -eq 0 ]; then
  bounded 5 virsh_ list --name
  if [ "$rc" != 0 ]; then
    printf '%s\n' "--- aio error *: virsh list: $(oneline "$(cat "$tmpd/err")") ---"
    exit 0
  fi
  set -- $(cat "$tmpd/out")
fi
for vm in "$@"; do
  case "$vm" in
    ''|*[!A-Za-z0-9_.-]*) printf '%s\n' "--- aio error $vm: not a domain name this script reads ---"; continue ;;
  esac
  bounded 5 virsh_ domstate "$vm"
  if [ "$rc" != 0 ]; then
    printf '%s\n' "--- aio error $vm: $(oneline "$(cat "$tmpd/err")") ---"
    continue
  fi
  state=$(head -n 1 "$tmpd/out" | tr -d '\r' | tr ' ' '-')
  bounded 5 virsh_ dumpxml "$vm"
  if [ "$rc" != 0 ]; then
    printf '%s\n' "--- aio error $vm: $(oneline "$(cat "$tmpd/err")") ---"
    continue
  fi
  printf '%s\n' "--- aio domain $vm ${state:-unknown} ---"
  cat "$tmpd/out"
  printf '%s\n' "--- aio log $vm ---"
  log="$logs/$vm.log"
  if [ -r "$log" ]; then
    # the current run: from the last "starting up" line libvirt writes at each start
    bounded 5 grep -n 'starting up' "$log"
    from=$(tail -n 1 "$tmpd/out" | cut -d: -f1)
    case "$from" in ''|*[!0-9]*) from=1 ;; esac
    tail -n "+$from" "$log" | head -c 65536
    printf '\n'
  fi
done
printf '%s\n' "--- aio end ---"
exit 0
