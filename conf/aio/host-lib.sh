# plugin-aio's helpers for its host scripts (POSIX sh), sourced by each: host-probe.sh, read-back.sh. A script sent to
# a host carries them inline (plugin-core's HostScript puts this file in place of the line that sources it), so a host
# never needs this file; run by hand next to it, a script sources it.
#
# $tmpd: a folder of the script's own, removed when it ends.
tmpd=$(mktemp -d 2>/dev/null) || tmpd="/tmp/aio-host.$$"
mkdir -p "$tmpd"
trap 'rm -rf "$tmpd"' 0

# one tick of the waiting loop: 0.02 s where sleep takes fractions (GNU, busybox), else 1 s; $hz ticks a second
if sleep 0.02 2>/dev/null; then tick=0.02; hz=50; else tick=1; hz=1; fi

# bounded SECONDS CMD...: runs CMD (stdin /dev/null; stdout into $tmpd/out, stderr into $tmpd/err, both into $out, its
# exit status into $rc) and abandons it after SECONDS (rc 124, $out says so): a process stuck in the kernel on a dead
# mount, or waiting for a libvirtd that does not answer, cannot be waited for, only left
bounded() {
  b_s=$1; b_max=$(($1 * hz)); shift
  "$@" >"$tmpd/out" 2>"$tmpd/err" </dev/null &
  b_pid=$!
  b_t=0
  while kill -0 "$b_pid" 2>/dev/null; do
    if [ "$b_t" -ge "$b_max" ]; then
      kill -9 "$b_pid" 2>/dev/null
      out="did not finish within $b_s s"
      printf '%s' "$out" >"$tmpd/err"
      rc=124
      return
    fi
    sleep "$tick"
    b_t=$((b_t + 1))
  done
  wait "$b_pid"
  rc=$?
  out=$(cat "$tmpd/out" "$tmpd/err" 2>/dev/null)
}

# one line: newlines of a tool's message become spaces, so a value never spills into a line of its own
oneline() { printf '%s' "$1" | tr '\n\r' '  ' | sed 's/  */ /g; s/ $//'; }
