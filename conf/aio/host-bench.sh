#!/bin/sh
# plugin-aio storage benchmark, ONE run per call (POSIX sh). Measures one io mode at one queue depth, reading or
# writing 4 KiB blocks, with QEMU's own block layer (qemu-img bench -t none: O_DIRECT, as disks run with cache none)
# on a scratch image it creates in the storage's path and always removes. Sent by the platform once per run (ZStack:
# KvmRunShellMsg, one short call per run, the job stepping from run to run); an admin may run it by hand:
#   sh host-bench.sh DIR MODE DEPTH RW SECONDS FORMAT PREALLOCATION SCRATCH_MIB RESERVE_MIB [TAG]
#   sh host-bench.sh /var/lib/zstack/ps native 32 write 5 qcow2 full 64 1024
# Arguments (plugin-core's BenchPlan gives them from conf/aio/measure.properties):
#   DIR            the storage's path on this host (a directory QEMU opens images in)
#   MODE           threads | native | io_uring
#   DEPTH          requests in flight, 1-1024
#   RW             read | write
#   SECONDS        1-9: each step is bounded with timeout(1) by what is left of SECONDS (the clock read in ms from
#                  /proc/uptime), so a call ends within SECONDS plus the 1 s grace timeout -k gives a qemu-img that
#                  ignores TERM: never past 10 s
#   FORMAT         qcow2 | raw;   PREALLOCATION  off | metadata | falloc | full (the scratch image's kind)
#   SCRATCH_MIB    the scratch image's size;   RESERVE_MIB  what must stay free on the storage besides it
#   TAG            optional, 1-32 letters or digits: the scratch image is DIR/.aio-bench.TAG.XXXXXX, so the benchmark
#                  that sent it can remove exactly its own leftovers afterwards (host-bench-scratch.sh clean DIR TAG)
# Prints exactly one line (docs/measure.md, "The benchmark script"), and nothing else on stdout:
#   bench mode=<threads|native|io_uring> depth=<n> rw=<read|write> iops=<n>      exit 0
#   bench mode=... depth=... rw=... refused=no-room <sentence>                   exit 3  (nothing was written)
#   bench refused=bad-arguments <sentence>                                       exit 2  (nothing was written)
#   bench mode=... depth=... rw=... failed=<sentence>                            exit 1
# The scratch file (DIR/.aio-bench.*) is removed on every exit, a signal's included; one left by a call killed with
# SIGKILL is swept by the next call once it is 5 minutes old (no call lives that long: another host's running
# scratch on a shared storage is never touched).
dir=$1 mode=$2 depth=$3 rw=$4 secs=$5 fmt=$6 prealloc=$7 scratch=$8 reserve=$9 tag=${10}
img=""
cleanup() { if [ -n "$img" ]; then rm -f "$img"; fi; }
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

bad() { echo "bench refused=bad-arguments $*"; exit 2; }
is_int() { case "$1" in ''|*[!0-9]*) return 1 ;; *) return 0 ;; esac; }
[ "$#" -eq 9 ] || [ "$#" -eq 10 ] || bad "9 arguments expected (DIR MODE DEPTH RW SECONDS FORMAT PREALLOCATION SCRATCH_MIB RESERVE_MIB), or 10 with TAG, got $#."
case "$mode" in threads|native|io_uring) ;; *) bad "MODE must be threads, native or io_uring." ;; esac
case "$rw" in read|write) ;; *) bad "RW must be read or write." ;; esac
is_int "$depth" && [ "$depth" -ge 1 ] && [ "$depth" -le 1024 ] || bad "DEPTH must be a whole number from 1 to 1024."
is_int "$secs" && [ "$secs" -ge 1 ] && [ "$secs" -le 9 ] || bad "SECONDS must be a whole number from 1 to 9."
case "$fmt" in qcow2|raw) ;; *) bad "FORMAT must be qcow2 or raw." ;; esac
case "$prealloc" in off|metadata|falloc|full) ;; *) bad "PREALLOCATION must be off, metadata, falloc or full." ;; esac
[ "$fmt" = raw ] && [ "$prealloc" = metadata ] && bad "a raw image has no metadata preallocation."
is_int "$scratch" && [ "$scratch" -ge 1 ] && [ "$scratch" -le 65536 ] || bad "SCRATCH_MIB must be a whole number from 1 to 65536."
is_int "$reserve" || bad "RESERVE_MIB must be a whole number."
if [ "$#" -eq 10 ]; then
  case "$tag" in ''|*[!A-Za-z0-9]*) bad "TAG must be 1-32 letters or digits." ;; esac
  [ "${#tag}" -le 32 ] || bad "TAG must be 1-32 letters or digits."
fi

run="bench mode=$mode depth=$depth rw=$rw"
fail() { echo "$run failed=$*"; exit 1; }
one_line() { tr '\n' ' ' | sed 's/  */ /g; s/ $//'; }
[ -d "$dir" ] || fail "$dir is not a directory on this host: is the primary storage mounted here?"
[ -w "$dir" ] || fail "$dir is not writable on this host."
command -v timeout >/dev/null 2>&1 || fail "timeout(1) is missing on this host, so a run could not be bounded; install coreutils."
command -v qemu-img >/dev/null 2>&1 || fail "qemu-img is not installed on this host."

# room first: the scratch image and the reserve must both fit, or nothing is written
free_kib=$(df -Pk "$dir" 2>/dev/null | awk 'NR == 2 { print $4 }')
is_int "$free_kib" || fail "cannot read the free space of $dir (df -Pk)."
need_kib=$(( (scratch + reserve) * 1024 ))
if [ "$free_kib" -lt "$need_kib" ]; then
  echo "$run refused=no-room $dir has $((free_kib / 1024)) MiB free; the benchmark needs $((scratch + reserve)) MiB (a $scratch MiB scratch image and $reserve MiB left free), so nothing was written."
  exit 3
fi

find "$dir" -maxdepth 1 -type f -name '.aio-bench.*' -mmin +5 -exec rm -f {} \; 2>/dev/null
# the clock in ms: /proc/uptime (centiseconds, Linux), else whole seconds from date; a step gets what is left of SECONDS
now_ms() {
  if [ -r /proc/uptime ]; then awk '{ printf "%d", $1 * 1000 }' /proc/uptime; else echo $(( $(date +%s) * 1000 )); fi
}
deadline_ms=$(( $(now_ms) + secs * 1000 ))
# seconds left as timeout(1) takes them (0.250), or 0 when less than a tenth of a second is left
left() { awk -v l=$((deadline_ms - $(now_ms))) 'BEGIN { if (l < 100) print 0; else printf "%.3f", l / 1000 }'; }

img=$(mktemp "$dir/.aio-bench.${tag:+$tag.}XXXXXX" 2>/dev/null) || { img=""; fail "cannot create a scratch file in $dir."; }
l=$(left)
[ "$l" != 0 ] || fail "no time left to create the scratch image within $secs s."
if ! out=$(timeout -k 1 "$l" qemu-img create -q -f "$fmt" -o "preallocation=$prealloc" "$img" "${scratch}M" 2>&1); then
  fail "qemu-img create of a $scratch MiB $fmt image (preallocation=$prealloc) failed: $(echo "$out" | one_line)"
fi

# 4 KiB random requests: each steps 4099 blocks (a prime) past the last, so they walk every block before repeating
step=$((4096 * 4099))
wflag=""
[ "$rw" = write ] && wflag="-w"
# the measured run aims at a third of the call; short runs first tell the rate
target_ms=$((secs * 1000 / 3))
count=$((depth == 1 ? 500 : 2000))
best_iops=""
tries=0
while [ "$tries" -lt 6 ]; do
  tries=$((tries + 1))
  l=$(left)
  [ "$l" != 0 ] || break
  # shellcheck disable=SC2086 # wflag is empty or one word
  out=$(timeout -k 1 "$l" qemu-img bench -f "$fmt" -t none -i "$mode" $wflag -c "$count" -d "$depth" -s 4096 \
        -S "$step" "$img" 2>&1)
  rc=$?
  case "$out" in
    *"falling back to thread pool"*)
      fail "QEMU could not use $mode here and fell back to its thread pool: $(echo "$out" | grep -i 'falling back' | head -n 1 | one_line)" ;;
  esac
  if [ "$rc" -ne 0 ]; then
    [ -n "$best_iops" ] && break   # the rate is known from a shorter run: the time ran out, not the mode
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
      fail "qemu-img bench -i $mode did not finish within $secs s."
    fi
    fail "qemu-img bench -i $mode failed: $(echo "$out" | one_line)"
  fi
  took=$(echo "$out" | sed -n 's/^Run completed in \([0-9.]*\) seconds.*/\1/p' | head -n 1)
  [ -n "$took" ] || fail "qemu-img bench printed no 'Run completed in' line: $(echo "$out" | one_line)"
  ms=$(awk -v t="$took" 'BEGIN { ms = t * 1000; if (ms < 1) ms = 1; printf "%d", ms }')
  best_iops=$(awk -v c="$count" -v ms="$ms" 'BEGIN { printf "%.0f", c * 1000 / ms }')
  [ "$ms" -ge $((target_ms / 2)) ] && break
  # next count: the rate so far times the target, at most 50 times this one, at most 20 million requests
  count=$(awk -v c="$count" -v ms="$ms" -v t="$target_ms" 'BEGIN {
    n = c * t / ms; if (n > c * 50) n = c * 50; if (n > 20000000) n = 20000000; printf "%d", n }')
done
[ -n "$best_iops" ] || fail "no run of qemu-img bench finished within $secs s."
echo "$run iops=$best_iops"
exit 0
