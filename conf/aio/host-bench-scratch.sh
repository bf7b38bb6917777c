#!/bin/sh
# plugin-aio storage benchmark: the two short calls around a benchmark's runs (POSIX sh), through the same channel as
# each run (ZStack: KvmRunShellMsg). Before the first run the platform checks the room; after the last run, whatever
# ended the benchmark (complete, budget spent, failed, refused, cancelled), it removes the benchmark's scratch files.
#   sh host-bench-scratch.sh room DIR SCRATCH_MIB RESERVE_MIB
#   sh host-bench-scratch.sh clean DIR TAG
# room: whether DIR has SCRATCH_MIB + RESERVE_MIB free (df -Pk), the test host-bench.sh makes again before each run.
#   bench-room free=<MiB> need=<MiB>                                   exit 0   (room enough)
#   bench-room refused=no-room <sentence>                              exit 3   (nothing may be written)
# clean: removes DIR/.aio-bench.TAG.* (the scratch images of the benchmark that sent TAG to host-bench.sh; its runs
# have all ended, each call being synchronous) and nothing else: another benchmark's files, on this host or on another
# host of a shared storage, carry another TAG.
#   bench-clean removed=<n> left=<n>                                   exit 0   (left: files of TAG still there)
# Any call:
#   bench-<room|clean> failed=<sentence>                               exit 1   (DIR missing, df unreadable, ...)
#   bench-scratch refused=bad-arguments <sentence>                     exit 2
verb=$1 dir=$2
bad() { echo "bench-scratch refused=bad-arguments $*"; exit 2; }
is_int() { case "$1" in ''|*[!0-9]*) return 1 ;; *) return 0 ;; esac; }
case "$verb" in
  room)
    [ "$#" -eq 4 ] || bad "room takes DIR SCRATCH_MIB RESERVE_MIB, got $(($# - 1)) argument(s)."
    scratch=$3 reserve=$4
    is_int "$scratch" && is_int "$reserve" || bad "SCRATCH_MIB and RESERVE_MIB must be whole numbers."
    [ -d "$dir" ] || { echo "bench-room failed=$dir is not a directory on this host: is the primary storage mounted here?"; exit 1; }
    free_kib=$(df -Pk "$dir" 2>/dev/null | awk 'NR == 2 { print $4 }')
    is_int "$free_kib" || { echo "bench-room failed=cannot read the free space of $dir (df -Pk)."; exit 1; }
    need=$((scratch + reserve))
    if [ "$free_kib" -lt $((need * 1024)) ]; then
      echo "bench-room refused=no-room $dir has $((free_kib / 1024)) MiB free; the benchmark needs $need MiB (a $scratch MiB scratch image and $reserve MiB left free), so nothing was run or written."
      exit 3
    fi
    echo "bench-room free=$((free_kib / 1024)) need=$need"
    ;;
  clean)
    [ "$#" -eq 3 ] || bad "clean takes DIR TAG, got $(($# - 1)) argument(s)."
    tag=$3
    case "$tag" in ''|*[!A-Za-z0-9]*) bad "TAG must be 1-32 letters or digits." ;; esac
    [ "${#tag}" -le 32 ] || bad "TAG must be 1-32 letters or digits."
    [ -d "$dir" ] || { echo "bench-clean failed=$dir is not a directory on this host: is the primary storage mounted here?"; exit 1; }
    removed=0 left=0
    for f in "$dir"/.aio-bench."$tag".*; do
      [ -e "$f" ] || continue
      if rm -f "$f" 2>/dev/null && [ ! -e "$f" ]; then removed=$((removed + 1)); else left=$((left + 1)); fi
    done
    echo "bench-clean removed=$removed left=$left"
    ;;
  *) bad "the first argument must be room or clean." ;;
esac
exit 0
