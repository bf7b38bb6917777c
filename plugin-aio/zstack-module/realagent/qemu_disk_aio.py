#!/usr/bin/env python3
"""Each disk's aio as the running QEMU of a VM has it, not as a domain XML says it.

usage: qemu_disk_aio.py VM_UUID [LIBVIRT_QMP_LOG]
Prints one JSON object: {"pid": <QEMU's pid>, "disks": {<image path>: {"aio": "threads|native|io_uring",
"direct": true|false, "from": "cmdline|blockdev-add", "node": <node-name>}}}.

- Disks QEMU was started with: its command line (/proc/<pid>/cmdline), the "-blockdev" of the protocol node
  (driver file or host_device) for the image; no "aio" there is QEMU's default, threads.
- Disks hot-plugged later are not on the command line, and QMP has no query that shows a node's aio: they are read
  from the blockdev-add that QEMU answered with success, in libvirt's monitor log (LIBVIRT_QMP_LOG, libvirtd's
  log filter 1:qemu.qemu_monitor), for a node QEMU still has now (QMP query-named-block-nodes through virsh), and only
  those logged after this QEMU process started: libvirt numbers a domain's nodes (libvirt-N-storage) from 1 again at
  each start, so a hot-plug into an earlier QEMU of the same VM may carry the name of a node this one has for another
  use, or for the same image opened otherwise.
A path both on the command line and hot-plugged later (after a detach) takes the newer.
"""
import calendar
import json
import os
import re
import subprocess
import sys
import time

PROTOCOL = ("file", "host_device")


def qemu_pid(vm_uuid):
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                args = f.read().split(b"\0")
        except OSError:
            continue
        if args and b"qemu" in os.path.basename(args[0]) and ("guest=%s" % vm_uuid).encode() in b" ".join(args):
            return int(pid), [a.decode() for a in args if a]
    return None, []


def started_at(pid):
    """The process's start, seconds since the epoch (to the clock tick): boot time from /proc/uptime, not btime,
    whose whole seconds could let a blockdev-add logged just before this start pass for one of its own."""
    with open("/proc/%d/stat" % pid) as f:
        ticks = int(f.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime
    with open("/proc/uptime") as f:
        boot = time.time() - float(f.read().split()[0])
    return boot + ticks / float(os.sysconf("SC_CLK_TCK"))


# libvirtd's log line: "2026-11-27 16:37:31.659+0000: 1234: info : ..."
STAMP = re.compile(r'^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\.(\d{3})\+0000: ')


def logged_at(line):
    """Seconds since the epoch of a libvirtd log line (UTC), or None."""
    m = STAMP.match(line)
    if not m:
        return None
    return calendar.timegm(time.strptime(m.group(1), "%Y-%m-%d %H:%M:%S")) + int(m.group(2)) / 1000.0


def disk(node, source):
    direct = bool((node.get("cache") or {}).get("direct", False))
    return {"aio": node.get("aio", "threads"), "direct": direct, "from": source, "node": node.get("node-name")}


def from_cmdline(args):
    disks = {}
    for i, a in enumerate(args[:-1]):
        if a == "-blockdev" and args[i + 1].startswith("{"):
            node = json.loads(args[i + 1])
            if node.get("driver") in PROTOCOL and "filename" in node:
                disks[node["filename"]] = disk(node, "cmdline")
    return disks


def live_nodes(vm_uuid):
    out = subprocess.run(["virsh", "-c", "qemu:///system", "qemu-monitor-command", vm_uuid,
                          '{"execute":"query-named-block-nodes","arguments":{"flat":true}}'],
                         capture_output=True, text=True, timeout=30)
    if out.returncode != 0:
        raise SystemExit("qemu_disk_aio: query-named-block-nodes failed: " + out.stderr.strip())
    return {n.get("node-name") for n in json.loads(out.stdout).get("return", [])}


SEND = re.compile(r'QEMU_MONITOR_SEND_MSG: mon=(0x[0-9a-f]+) msg=(\{.*\})\s*(fd=-?\d+)?\s*$')
RECV = re.compile(r'QEMU_MONITOR_RECV_REPLY: mon=(0x[0-9a-f]+) reply=(\{.*\})\s*$')


def logged_json(pattern, line):
    """(monitor, object) of a monitor log line that pattern matches, else None."""
    m = pattern.search(line)
    if not m:
        return None
    try:
        return m.group(1), json.loads(m.group(2))
    except ValueError:
        return None


def from_qmp_log(path, wanted_nodes, since):
    """blockdev-add commands QEMU answered with "return", newest last, for nodes in wanted_nodes, sent after since."""
    sent, disks = {}, {}
    if not path or not os.path.exists(path):
        return disks
    with open(path, errors="replace") as f:
        for line in f:
            at = logged_at(line)
            if at is None or at < since:
                continue
            msg = logged_json(SEND, line)
            if msg and msg[1].get("execute") == "blockdev-add":
                sent[(msg[0], msg[1].get("id"))] = msg[1].get("arguments", {})
                continue
            reply = logged_json(RECV, line)
            if reply:
                node = sent.pop((reply[0], reply[1].get("id")), None)
                if node is not None and "return" in reply[1] and node.get("driver") in PROTOCOL \
                        and node.get("node-name") in wanted_nodes:
                    disks[node["filename"]] = disk(node, "blockdev-add")
    return disks


def main():
    vm_uuid = sys.argv[1]
    pid, args = qemu_pid(vm_uuid)
    if pid is None:
        print(json.dumps({"pid": None, "disks": {}}))
        return
    disks = from_cmdline(args)
    if len(sys.argv) > 2:
        live = live_nodes(vm_uuid)
        for path, d in from_qmp_log(sys.argv[2], live, started_at(pid)).items():
            disks[path] = d
        disks = {p: d for p, d in disks.items() if d["node"] in live}
    print(json.dumps({"pid": pid, "disks": disks}, sort_keys=True))


if __name__ == "__main__":
    main()
