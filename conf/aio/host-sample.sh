#!/bin/sh
# plugin-aio workload sample (POSIX sh): every running domain's block counters, in libvirt's own standard outputs, for
# the platform to fold into each disk's time-decayed profile (plugin-core's HostSample and WorkloadFold). One short
# call per host per interval (ZStack: KvmRunShellMsg); an admin may run it by hand:
#   sh host-sample.sh [CALL_SECONDS]
# Prints (docs/measure.md, "The sampling script"):
#   sample at=<the host's clock, epoch seconds>      (both ends of a delta use the host's one clock)
#   --- virsh list                                  then `virsh -r list`: each running domain's libvirt id (a new id for
#                                                   every QEMU start: the counters restart with it)
#   --- virsh domstats --block                      then `virsh -r domstats --block --list-running`: per disk
#                                                   block.N.name, .path, .rd.reqs, .rd.bytes, .rd.times, .wr.reqs, ...
#   sample failed=<sentence>                        instead, when a call failed (exit 1)
# Each virsh call is bounded by CALL_SECONDS (default 5, conf/aio/measure.properties workload.callSeconds); read-only
# connections (-r): the sample changes nothing on the host.
t=${1:-5}
case "$t" in ''|*[!0-9]*) echo "sample failed=CALL_SECONDS must be a whole number, not '$t'."; exit 2 ;; esac
command -v virsh >/dev/null 2>&1 || { echo "sample failed=virsh is not installed on this host."; exit 1; }
command -v timeout >/dev/null 2>&1 || { echo "sample failed=timeout(1) is missing on this host, so the sample could not be bounded."; exit 1; }
echo "sample at=$(date +%s)"
echo "--- virsh list"
if ! timeout -k 1 "$t" virsh -r list; then
  echo "sample failed=virsh list did not answer within $t s or failed."
  exit 1
fi
echo "--- virsh domstats --block"
if ! timeout -k 1 "$t" virsh -r domstats --block --list-running; then
  echo "sample failed=virsh domstats --block did not answer within $t s or failed."
  exit 1
fi
exit 0
