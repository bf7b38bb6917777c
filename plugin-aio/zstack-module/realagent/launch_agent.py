# -*- coding: utf-8 -*-
"""Runs ZStack's real kvmagent VM handlers (vm_plugin.VmPlugin, Python 2.7) behind a plain HTTP server on 127.0.0.1.

The real-agent tier (AioIoModeRealAgentCase) forwards the commands of the VM operations the module touches here, as
ZStack's management node would send them to the agent's port 7070, and gets the agent's own answer back synchronously
(the test framework's simulator then does the async callback, as the agent's http.py does). Only these paths are served;
every other agent path stays with ZStack's simulator. It is not the agent's daemon (kvmagent's main, AddKVMHost's
deploy): see docs/zstack-module.md "Proven with ZStack's real agent".

usage: PYTHONPATH=<agent site-packages> python2.7 launch_agent.py PORT
GET /health answers "ok <vm_plugin.py path>" once the plugin is loaded.
"""
import BaseHTTPServer
import os
import signal
import sys
import traceback
import locale

# as the agent's daemon start does (zstacklib/utils/daemon.py): the agent reads `ps` output, which must not be cut at 80
# columns (the agent finds a VM's QEMU with `ps x | awk '/qemu[-].*<uuid>/'`)
locale.setlocale(locale.LC_ALL, 'C')
os.environ["LC_ALL"] = "C"
os.environ["COLUMNS"] = str(os.sysconf('SC_ARG_MAX'))

from zstacklib.utils import http
from kvmagent.plugins import vm_plugin

from kvmagent.plugins import imagestore

# Every detach first asks ZStack's imagestore client to stop a disk mirror (`zstcli stopmirr`). zstcli ships with
# ZStack's hosts, not with the open-source agent; without it the detach fails with "zstcli: No such file or directory".
# No disk here has a mirror, so where zstcli is missing the call does nothing (said once in the log).
if not os.path.exists(imagestore.ImageStoreClient.ZSTORE_CLI_BIN):
    sys.stderr.write("launch_agent: %s is missing: stop_mirror does nothing\n" % imagestore.ImageStoreClient.ZSTORE_CLI_BIN)
    imagestore.ImageStoreClient.stop_mirror = lambda self, vm, complete, node, force=False: None

PLUGIN = vm_plugin.VmPlugin()
HANDLERS = {
    vm_plugin.VmPlugin.KVM_START_VM_PATH: PLUGIN.start_vm,
    vm_plugin.VmPlugin.KVM_STOP_VM_PATH: PLUGIN.stop_vm,
    vm_plugin.VmPlugin.KVM_REBOOT_VM_PATH: PLUGIN.reboot_vm,
    vm_plugin.VmPlugin.KVM_DESTROY_VM_PATH: PLUGIN.destroy_vm,
    vm_plugin.VmPlugin.KVM_ATTACH_VOLUME: PLUGIN.attach_data_volume,
    vm_plugin.VmPlugin.KVM_DETACH_VOLUME: PLUGIN.detach_data_volume,
}


class Handler(BaseHTTPServer.BaseHTTPRequestHandler):
    def _answer(self, code, body):
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/health":
            self._answer(200, "ok %s" % vm_plugin.__file__.replace(".pyc", ".py"))
        else:
            self._answer(404, "no such path")

    def do_POST(self):
        handler = HANDLERS.get(self.path)
        if handler is None:
            self._answer(404, "this launcher serves only %s" % sorted(HANDLERS.keys()))
            return
        body = self.rfile.read(int(self.headers.getheader("content-length") or 0))
        headers = dict((k.lower(), v) for k, v in self.headers.items())
        try:
            self._answer(200, handler({http.REQUEST_BODY: body, http.REQUEST_HEADER: headers}))
        except Exception:  # the agent's handlers answer their own errors; anything else is the launcher's
            self._answer(500, traceback.format_exc())

    def log_message(self, fmt, *args):
        sys.stderr.write("launch_agent: " + (fmt % args) + "\n")


def main():
    port = int(sys.argv[1])
    server = BaseHTTPServer.HTTPServer(("127.0.0.1", port), Handler)
    # the agent's libvirt event thread is not a daemon thread: leave hard
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    sys.stderr.write("launch_agent: serving %s on 127.0.0.1:%d\n" % (sorted(HANDLERS.keys()), port))
    try:
        server.serve_forever()
    finally:
        os._exit(0)


if __name__ == "__main__":
    main()
