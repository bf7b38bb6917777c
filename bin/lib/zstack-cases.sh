#!/usr/bin/env bash
# plugin-aio inside a real ZStack: builds ZStack 5.2.0 once with its testbed's build.sh (cached by the source tarball's
# hash; the testbed is AIO_ZSTACK_DIR, else ../shared/clients/zstack: bin/lib/zstack-parts.sh), builds
# plugin-aio/zstack-module against it (Java 8 bytecode), checks that every class it ships is class-file major version
# 52 or lower, tests the install/uninstall script, the module's upgrade scripts through ZStack's upgrade_db (suite runs
# only) and the optional kvmagent patch, then runs
# the module's ZStack cases (src/zstack-test) with ZStack's own test framework through run-case.sh.
#
# The root `mvn verify` never needs ZStack: the module is not in the root reactor, only this script builds it.
# Usage: bin/lib/zstack-cases.sh [CaseName ...]       (default: every *Case under src/zstack-test, then
#        AioUninstalledBootTest from src/zstack-uninstalled: a node without the module on the database it left)
# Env:   AIO_ZSTACK_DIR    ZStack's testbed (zstack-src-*.tar.gz, build.sh, run-case.sh, kvmagent/)
#        AIO_ZSTACK_CACHE  where ZStack is built (default ~/.cache/plugin-aio-zstack); one folder per tarball hash
#        AIO_PYTHON2 / AIO_PYTHON3  interpreters the hook is run with (default: found on this machine)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
MODULE="$ROOT/plugin-aio/zstack-module"
. "$ROOT/bin/lib/zstack-parts.sh"
zstack_find
ZS="$ZSTACK_DIR"
[ -n "$ZS" ] || { echo "zstack-cases: $ZSTACK_DIR_WHY (docs/zstack-module.md)" >&2; exit 2; }
T0=$(date +%s)
step() { echo "[zstack-cases] $(date +%T) +$(( $(date +%s) - T0 ))s $*"; }

# ---- ZStack, built once per source tarball, into the local Maven repository ----
zstack_local_repo
zstack_build
SRC="$ZSTACK_HOME/src"
for f in "$MODULE"/conf/db/upgrade/*.sql; do rm -f "$SRC/conf/db/upgrade/$(basename "$f")"; done   # left by an interrupted run

# ---- the module and the cores it ships (decision, plugin) ----
step "building the decision core and plugin-aio/zstack-module"
zstack_module_build
JARS=("${ZSTACK_MODULE_JARS[@]}")

# ---- interpreters the generated hook runs under (the agent's Python 2 and Python 3) ----
find_python2() {
  [ -n "${AIO_PYTHON2:-}" ] && { echo "$AIO_PYTHON2"; return; }
  for p in python2.7 python2; do
    if command -v "$p" >/dev/null && "$p" -c 'import sys; assert sys.version_info[0] == 2' 2>/dev/null; then command -v "$p"; return; fi
  done
  ls -d "$HOME"/.pyenv/versions/2.7*/bin/python2.7 /root/.pyenv/versions/2.7*/bin/python2.7 2>/dev/null | head -1
}
PY2="$(find_python2)"; PY3="${AIO_PYTHON3:-$(command -v python3)}"
[ -x "$PY2" ] || { echo "zstack-cases: no Python 2.7 found (set AIO_PYTHON2); the hook must be checked under the agent's Python 2" >&2; exit 1; }

step "install / uninstall script on a copy of ZStack's conf/"
bash "$MODULE/install/test-install.sh" "$SRC"
if [ $# -eq 0 ]; then
  # ZStack's upgrade path for the module's scripts (a private MariaDB, ZStack's deploydb.sh and flyway; ~5 min): with
  # the suite only, so that a single named case stays quick
  step "the module's upgrade scripts through zstack-ctl upgrade_db's flyway call"
  bash "$MODULE/install/test-upgrade-db.sh" "$SRC"
fi
step "optional kvmagent patch"
bash "$MODULE/kvmagent/test-patch.sh" "$ZS/kvmagent" "$PY2"

# ---- the cases: the module's own files laid out as run-case.sh's ZSTACK_EXTRA_CASES expects ----
EXTRA="$(mktemp -d)"
UPGRADE_SQL=("$MODULE"/conf/db/upgrade/*.sql)
# the node without the module (AioUninstalledBootTest): only its test, the two test helpers it shares, and a test-only
# script that leaves in the database what an uninstalled module leaves (never shipped: not in conf/db/upgrade)
UNINSTALLED="$(mktemp -d)"
LEFTOVERS="$MODULE/src/zstack-uninstalled/sql/V5.2.1.104_1__aio_uninstalled_leftovers.sql"
cleanup() {
  rm -rf "$EXTRA" "$UNINSTALLED"
  for f in "${UPGRADE_SQL[@]}" "$LEFTOVERS"; do rm -f "$SRC/conf/db/upgrade/$(basename "$f")"; done
}
trap cleanup EXIT
cp -r "$MODULE/src/zstack-test/." "$EXTRA/"
mkdir -p "$EXTRA/resources"
for d in globalConfig springConfigXml serviceConfig; do cp -r "$MODULE/conf/$d" "$EXTRA/resources/"; done
# the module's upgrade script joins ZStack's own, as install.sh puts it on a management node
cp "${UPGRADE_SQL[@]}" "$SRC/conf/db/upgrade/"
cp -r "$MODULE/src/zstack-uninstalled/groovy" "$UNINSTALLED/"
mkdir -p "$UNINSTALLED/groovy/org/zstack/test/integration/aio"
for f in AioEnvs AioLogWatch; do cp "$MODULE/src/zstack-test/groovy/org/zstack/test/integration/aio/$f.groovy" "$UNINSTALLED/groovy/org/zstack/test/integration/aio/"; done

# default: the suite AioIoModeTest runs every *Case of the module in one management node (one boot, one compile);
# named cases run one by one, each in its own node
# and then a node without the module boots on the database it left (uninstall without uninstall.sql)
if [ $# -gt 0 ]; then RUNS=("$@"); else RUNS=(AioIoModeTest AioUninstalledBootTest AioIoModeRealAgentCase); fi
# the real-agent tier (AioIoModeRealAgentCase: ZStack's real kvmagent, libvirtd and QEMU; bin/lib/zstack-agent.sh) runs
# when its agent environment can be built here; otherwise one line says why, and under CI=true that is a failure
. "$ROOT/bin/lib/zstack-agent.sh"
realagent_skipped=""
if printf '%s\n' "${RUNS[@]}" | grep -qx AioIoModeRealAgentCase && ! zstack_agent_env; then
  realagent_skipped="zstack-cases: skipping the real-agent tier AioIoModeRealAgentCase: $AGENT_WHY"
  echo "$realagent_skipped"
  RUNS=($(printf '%s\n' "${RUNS[@]}" | grep -vx AioIoModeRealAgentCase || true))
fi
CP="$(IFS=,; echo "${JARS[*]}")"
wait_for_db_exit() {
  local pidf="$ZSTACK_HOME/mariadb/mariadbd.pid" i
  for i in $(seq 1 60); do
    [ -f "$pidf" ] && kill -0 "$(cat "$pidf")" 2>/dev/null || return 0
    sleep 1
  done
}
passed=0; failed=0
for run in "${RUNS[@]}"; do
  step "$run"
  # ZSTACK_DB_STOP=1: run-case.sh's MariaDB inherits its lock file descriptor, so a kept database would make the next
  # run-case.sh refuse to start ("another run-case.sh is running"); each run starts it on the kept datadir instead
  wait_for_db_exit
  rc=0
  if [ "$run" = AioUninstalledBootTest ]; then
    cp "$LEFTOVERS" "$SRC/conf/db/upgrade/"
    ZSTACK_DB_STOP=1 ZSTACK_EXTRA_CASES="$UNINSTALLED" "$ZS/run-case.sh" "$run" || rc=$?
    rm -f "$SRC/conf/db/upgrade/$(basename "$LEFTOVERS")"
  elif [ "$run" = AioIoModeRealAgentCase ]; then
    if zstack_agent_start "$(mktemp -d /tmp/aio-realagent.XXXXXX)"; then
      ZSTACK_DB_STOP=1 ZSTACK_EXTRA_CASES="$EXTRA" "$ZS/run-case.sh" "$run" "-Dmaven.test.additionalClasspath=$CP" \
        "-Daio.realagent.stock=$AGENT_STOCK_URL" "-Daio.realagent.patched=$AGENT_PATCHED_URL" \
        "-Daio.realagent.tools=$MODULE/realagent" "-Daio.realagent.qmplog=$AGENT_RUN_DIR/qmp.log" || rc=$?
      zstack_agent_stop
      grep -o 'real-agent tier: .*' "$ZSTACK_HOME/run-$run.log" | cut -c1-200 || true
    else
      echo "zstack-cases: $AGENT_WHY" >&2; rc=1
    fi
  else
    ZSTACK_DB_STOP=1 ZSTACK_EXTRA_CASES="$EXTRA" "$ZS/run-case.sh" "$run" "-Dmaven.test.additionalClasspath=$CP" \
      "-Daio.kvmagent.dir=$ZS/kvmagent" "-Daio.python2=$PY2" "-Daio.python3=$PY3" || rc=$?
  fi
  LOG="$ZSTACK_HOME/run-$run.log"
  if [ "$run" = AioIoModeTest ]; then
    # the suite logs one line per case; a failed case makes it exit 1
    results="$(grep -oE 'a sub case\[class [^]]*\] of suite\[class [^]]*\] (completes without any error|fails)' "$LOG" | sort -u || true)"
    echo "$results" | sed 's/^/  /'
    ok="$(echo "$results" | grep -c 'completes without any error' || true)"
    bad="$(echo "$results" | grep -c ' fails$' || true)"
    # every *Case of the package must have run: a case the suite did not pick up is a failure, not a pass
    cases="$(grep -L '^@SkipTestSuite' "$MODULE"/src/zstack-test/groovy/org/zstack/test/integration/aio/*Case.groovy | wc -l)"
    [ "$((ok + bad))" -eq "$cases" ] || { echo "zstack-cases: the suite reported $((ok + bad)) case(s), the module has $cases" >&2; bad=$((bad + 1)); }
    [ "$rc" = 0 ] || [ "$bad" -gt 0 ] || bad=1    # the suite failed without a failed case
    passed=$((passed + ok)); failed=$((failed + bad))
  elif [ "$rc" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  [ "$rc" = 0 ] || grep -E 'AssertionError|Assertion failed' "$LOG" | cut -c1-400 | head -10 || true
done
step "done"
echo "zstack: $passed passed, $failed failed"
if [ -n "$realagent_skipped" ]; then
  echo "$realagent_skipped"
  [ "${CI:-}" != true ] || { echo "zstack-cases: CI=true requires the real-agent tier" >&2; exit 1; }
fi
[ "$failed" = 0 ]
