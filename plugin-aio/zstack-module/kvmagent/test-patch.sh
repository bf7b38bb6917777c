#!/usr/bin/env bash
# Tests the optional kvmagent patch: it applies cleanly to ZStack's vm_plugin.py (zstack-utility f7b496e82), the
# patched file still parses under the agent's Python 2, and its hot-plug io code behaves (test_hotplug_patch.py).
# Usage: test-patch.sh KVMAGENT_DIR  (the folder holding ZStack's vm_plugin.py)  [PYTHON2]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="${1:?usage: test-patch.sh KVMAGENT_DIR [PYTHON2]}"
PY2="${2:-${AIO_PYTHON2:-}}"
[ -x "$PY2" ] || { echo "test-patch.sh: give the agent's Python 2.7 (second argument or AIO_PYTHON2)" >&2; exit 2; }
W="$(mktemp -d)"; trap 'rm -rf "$W"' EXIT
mkdir -p "$W/kvmagent/kvmagent/plugins"
cp "$SRC/vm_plugin.py" "$W/kvmagent/kvmagent/plugins/vm_plugin.py"
cp "$SRC/vm_plugin.py" "$W/original.py"
(cd "$W" && patch -p1 --dry-run -s < "$HERE/aio-hotplug-io-mode.patch" && patch -p1 -s --no-backup-if-mismatch < "$HERE/aio-hotplug-io-mode.patch")
"$PY2" "$HERE/test_hotplug_patch.py" "$W/original.py" "$W/kvmagent/kvmagent/plugins/vm_plugin.py"
