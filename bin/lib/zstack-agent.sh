#!/usr/bin/env bash
# Source me: ZStack's real KVM agent (kvmagent, zstack-utility 5.2.1, Python 2.7) for the real-agent tier
# (AioIoModeRealAgentCase, docs/zstack-module.md "Proven with ZStack's real agent"). None of it is in the repository:
# it is built from ../shared/clients/zstack-agent (AIO_ZSTACK_AGENT_DIR) with its build-agent-env.sh, once per input,
# into ${AIO_ZSTACK_CACHE:-~/.cache/plugin-aio-zstack}/agent-<hash>/{stock,patched}; "patched" has the module's optional
# kvmagent patch (plugin-aio/zstack-module/kvmagent/aio-hotplug-io-mode.patch) applied to the real vm_plugin.py.
#
# zstack_agent_env: sets AGENT_STOCK and AGENT_PATCHED (site-packages folders) and AGENT_PY2, or leaves them empty with
# AGENT_WHY saying in one line why the tier cannot run here. Needs root (QEMU runs as root as on ZStack's hosts: the
# agent finds its QEMU with `ps x`; bin/lib/setup-libvirt.sh configures that), a running libvirtd, Python 2.7 with
# headers, gcc; installs libvirt-dev and pkg-config when missing.
AGENT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

zstack_agent_env() {
  AGENT_STOCK=""; AGENT_PATCHED=""; AGENT_WHY=""
  local dir="${AIO_ZSTACK_AGENT_DIR:-$(dirname "$AGENT_ROOT")/shared/clients/zstack-agent}"
  local patch="$AGENT_ROOT/plugin-aio/zstack-module/kvmagent/aio-hotplug-io-mode.patch"
  AGENT_PY2="${AIO_PYTHON2:-$(ls -d "$HOME"/.pyenv/versions/2.7*/bin/python2.7 /root/.pyenv/versions/2.7*/bin/python2.7 2>/dev/null | head -1)}"
  if [ ! -f "$dir/build-agent-env.sh" ] || ! compgen -G "$dir/zstack-utility-*-agent.tar.gz" >/dev/null; then
    AGENT_WHY="no ZStack agent (build-agent-env.sh, zstack-utility-*-agent.tar.gz) in $dir: set AIO_ZSTACK_AGENT_DIR"; return 1
  fi
  [ "$(id -u)" = 0 ] || { AGENT_WHY="not root: the real agent defines VMs in the system libvirtd and QEMU must run as root"; return 1; }
  [ -x "$AGENT_PY2" ] || { AGENT_WHY="no Python 2.7 (set AIO_PYTHON2): the agent is Python 2 only"; return 1; }
  command -v gcc >/dev/null || { AGENT_WHY="no gcc: libvirt-python is compiled for the agent"; return 1; }
  grep -qE '^[[:space:]]*user[[:space:]]*=[[:space:]]*"root"' /etc/libvirt/qemu.conf 2>/dev/null \
    || { AGENT_WHY="QEMU does not run as root (/etc/libvirt/qemu.conf): run bin/lib/setup-libvirt.sh, which sets it as ZStack hosts have it"; return 1; }
  virsh -c qemu:///system version >/dev/null 2>&1 || { AGENT_WHY="libvirtd does not answer on qemu:///system (bin/lib/setup-libvirt.sh)"; return 1; }
  if ! pkg-config --exists libvirt 2>/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libvirt-dev pkg-config >/dev/null 2>&1 \
      || { apt-get update -q >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libvirt-dev pkg-config >/dev/null 2>&1; } \
      || { AGENT_WHY="apt-get could not install libvirt-dev pkg-config (needed to build libvirt-python)"; return 1; }
  fi
  local hash cache
  hash="$(cat "$dir"/zstack-utility-*-agent.tar.gz "$dir/build-agent-env.sh" "$dir/libvirt-python-"*.tar.gz "$patch" | sha256sum | cut -c1-16)"
  cache="${AIO_ZSTACK_CACHE:-$HOME/.cache/plugin-aio-zstack}/agent-$hash"
  if [ ! -f "$cache/.built" ]; then
    rm -rf "$cache"; mkdir -p "$cache"
    if ! PY2="$AGENT_PY2" bash "$dir/build-agent-env.sh" "$cache/stock" >"$cache/build.log" 2>&1; then
      AGENT_WHY="the agent environment did not build: $(tail -1 "$cache/build.log") (log: $cache/build.log)"; return 1
    fi
    cp -a "$cache/stock" "$cache/patched"
    patch -s --no-backup-if-mismatch "$cache/patched/lib/python2.7/site-packages/kvmagent/plugins/vm_plugin.py" "$patch" >/dev/null \
      || { AGENT_WHY="the module's kvmagent patch did not apply to the agent's vm_plugin.py"; return 1; }
    rm -f "$cache"/patched/lib/python2.7/site-packages/kvmagent/plugins/vm_plugin.pyc
    touch "$cache/.built"
  fi
  AGENT_STOCK="$cache/stock/lib/python2.7/site-packages"
  AGENT_PATCHED="$cache/patched/lib/python2.7/site-packages"
}

# zstack_agent_start DIR: starts the real agent twice on 127.0.0.1 (stock on AGENT_STOCK_URL, patched on
# AGENT_PATCHED_URL; logs in DIR) and turns on libvirtd's monitor log (DIR/qmp.log; a hot-plugged disk's aio is only
# seen in the blockdev-add QEMU acknowledged). zstack_agent_stop undoes both: it ends the two launchers by their pids,
# gives libvirtd back its log settings and removes DIR.
zstack_agent_start() {
  local dir="$1" port
  AGENT_RUN_DIR="$dir"; mkdir -p "$dir"
  AGENT_LOG_OUTPUTS="$(virt-admin daemon-log-outputs 2>/dev/null | sed -n 's/^ *Logging outputs: *//p')"
  AGENT_LOG_FILTERS="$(virt-admin daemon-log-filters 2>/dev/null | sed -n 's/^ *Logging filters: *//p')"
  : > "$dir/qmp.log"
  virt-admin daemon-log-filters "${AGENT_LOG_FILTERS:+$AGENT_LOG_FILTERS }1:qemu.qemu_monitor" >/dev/null
  virt-admin daemon-log-outputs "${AGENT_LOG_OUTPUTS:+$AGENT_LOG_OUTPUTS }1:file:$dir/qmp.log" >/dev/null
  AGENT_PIDS=()
  for kind in stock patched; do
    port=$([ "$kind" = stock ] && echo "${AIO_REALAGENT_PORT:-17071}" || echo "$(( ${AIO_REALAGENT_PORT:-17071} + 1 ))")
    local sp; sp=$([ "$kind" = stock ] && echo "$AGENT_STOCK" || echo "$AGENT_PATCHED")
    PYTHONPATH="$sp" "$AGENT_PY2" "$AGENT_ROOT/plugin-aio/zstack-module/realagent/launch_agent.py" "$port" >"$dir/agent-$kind.log" 2>&1 &
    AGENT_PIDS+=($!)
    eval "AGENT_$(echo "$kind" | tr a-z A-Z)_URL=http://127.0.0.1:$port"
  done
  local url
  for url in "$AGENT_STOCK_URL" "$AGENT_PATCHED_URL"; do
    for _ in $(seq 1 60); do curl -sf "$url/health" >/dev/null && break; sleep 0.5; done
    curl -sf "$url/health" >/dev/null || { AGENT_WHY="the real agent did not answer on $url (log: $dir)"; zstack_agent_stop; return 1; }
  done
}

zstack_agent_stop() {
  local pid
  for pid in "${AGENT_PIDS[@]:-}"; do [ -n "$pid" ] && kill "$pid" 2>/dev/null; done
  AGENT_PIDS=()
  virt-admin daemon-log-outputs "${AGENT_LOG_OUTPUTS:-3:file:/var/log/libvirt/libvirtd.log}" >/dev/null 2>&1 || true
  virt-admin daemon-log-filters "${AGENT_LOG_FILTERS:-}" >/dev/null 2>&1 || true
  # the launchers' logs and the monitor log stay only when asked for (AIO_REALAGENT_KEEP=1)
  [ "${AIO_REALAGENT_KEEP:-0}" = 1 ] || [ -z "${AGENT_RUN_DIR:-}" ] || rm -rf "$AGENT_RUN_DIR"
}
