#!/usr/bin/env bash
# Adds plugin-aio to a ZStack management node, or takes it away again.
#
# Usage: install.sh install   [--zstack-home DIR]
#        install.sh uninstall [--zstack-home DIR]
#   DIR: the management node's web application, the folder holding WEB-INF/ (default: $ZSTACK_HOME, else
#        /usr/local/zstack/apache-tomcat/webapps/zstack). Stop the management node first (zstack-ctl stop_node).
#
# This script sits in the module's bundle beside lib/ (the jars) and conf/ (globalConfig/, springConfigXml/,
# serviceConfig/, db/upgrade/). install copies them into WEB-INF/lib and WEB-INF/classes, never over a file that is
# already there, adds the import of springConfigXml/AioIoMode.xml to WEB-INF/classes/zstack.xml, and records all of it
# in WEB-INF/classes/.plugin-aio.installed. uninstall removes exactly what that record lists and the import line,
# so ZStack's files are as they were. Neither touches the database: see docs/zstack-module.md (upgrade_db, and
# conf/uninstall.sql for the rows the module owns).
set -euo pipefail
BUNDLE="$(cd "$(dirname "$0")" && pwd)"
IMPORT='    <import resource="springConfigXml/AioIoMode.xml"/>'

die() { echo "install.sh: $*" >&2; exit 1; }
usage() { sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

ACTION="${1:-}"; shift || true
HOME_DIR="${ZSTACK_HOME:-/usr/local/zstack/apache-tomcat/webapps/zstack}"
while [ $# -gt 0 ]; do
  case "$1" in
    --zstack-home) HOME_DIR="${2:?--zstack-home needs a folder}"; shift 2;;
    *) usage;;
  esac
done
CLASSES="$HOME_DIR/WEB-INF/classes"; LIB="$HOME_DIR/WEB-INF/lib"; XML="$CLASSES/zstack.xml"
RECORD="$CLASSES/.plugin-aio.installed"
[ -f "$XML" ] && [ -d "$LIB" ] || die "$HOME_DIR is not a ZStack management node (no WEB-INF/classes/zstack.xml or WEB-INF/lib); pass --zstack-home"

install_module() {
  [ ! -e "$RECORD" ] || die "plugin-aio is already installed in $HOME_DIR ($RECORD); run uninstall first"
  grep -qF "springConfigXml/AioIoMode.xml" "$XML" && die "$XML already imports springConfigXml/AioIoMode.xml; fix it by hand, then retry"
  grep -q '</beans>' "$XML" || die "$XML has no </beans> to put the import before"
  [ -d "$BUNDLE/lib" ] && [ -d "$BUNDLE/conf" ] || die "the bundle beside this script has no lib/ or conf/"
  local added=() rel dst
  # everything is checked before anything is written, so a refused install changes nothing
  while IFS= read -r rel; do
    dst="$CLASSES/$rel"
    [ -e "$dst" ] && die "WEB-INF/classes/$rel already exists; nothing was changed"
  done < <(cd "$BUNDLE/conf" && find . -type f | sed 's|^\./||' | sort)
  for jar in "$BUNDLE"/lib/*.jar; do
    dst="$LIB/$(basename "$jar")"
    if [ -e "$dst" ]; then
      cmp -s "$jar" "$dst" || die "WEB-INF/lib/$(basename "$jar") exists and differs from the bundle's; nothing was changed"
      echo "kept WEB-INF/lib/$(basename "$jar") (already there, identical)"
      continue
    fi
    cp "$jar" "$dst"; added+=("lib/$(basename "$jar")")
  done
  while IFS= read -r rel; do
    # folders this install creates are recorded too (as dir:...), so uninstall removes them and no other
    local d="$(dirname "$rel")" missing=()
    while [ "$d" != . ] && [ ! -d "$CLASSES/$d" ]; do missing=("$d" "${missing[@]}"); d="$(dirname "$d")"; done
    for d in "${missing[@]}"; do mkdir "$CLASSES/$d"; added+=("dir:classes/$d"); done
    cp "$BUNDLE/conf/$rel" "$CLASSES/$rel"; added+=("classes/$rel")
  done < <(cd "$BUNDLE/conf" && find . -type f | sed 's|^\./||' | sort)
  # the import goes on a line of its own, right before the line that closes </beans>
  python3 - "$XML" "$IMPORT" <<'PY'
import sys
path, line = sys.argv[1], sys.argv[2]
text = open(path).read()
start = text.rfind('\n', 0, text.rindex('</beans>')) + 1
open(path, 'w').write(text[:start] + line + '\n' + text[start:])
PY
  printf '%s\n' "${added[@]}" > "$RECORD"
  echo "installed plugin-aio into $HOME_DIR: ${#added[@]} file(s) and the import in WEB-INF/classes/zstack.xml"
  echo "next: zstack-ctl upgrade_db (creates AioVolumeIoModeDecisionVO and AioHostIoFactsVO), then zstack-ctl start_node"
}

uninstall_module() {
  [ -f "$RECORD" ] || die "plugin-aio is not installed in $HOME_DIR (no $RECORD)"
  python3 - "$XML" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().split('\n')
keep = [l for l in lines if l.strip() != '<import resource="springConfigXml/AioIoMode.xml"/>']
if len(keep) != len(lines) - 1:
    sys.exit("install.sh: expected exactly one import of springConfigXml/AioIoMode.xml in %s, found %d" % (path, len(lines) - len(keep)))
open(path, 'w').write('\n'.join(keep))
PY
  local rel n=0
  while IFS= read -r rel; do
    case "$rel" in dir:*|'') continue;; esac
    rm -f "$HOME_DIR/WEB-INF/$rel"; n=$((n + 1))
  done < "$RECORD"
  # folders the install created, deepest first, only when nothing else was put in them since
  while IFS= read -r rel; do
    rmdir "$HOME_DIR/WEB-INF/${rel#dir:}" 2>/dev/null || echo "kept WEB-INF/${rel#dir:}: it is not empty"
  done < <(grep '^dir:' "$RECORD" | sort -r)
  rm -f "$RECORD"
  echo "uninstalled plugin-aio from $HOME_DIR: removed $n file(s) and the import in WEB-INF/classes/zstack.xml"
  echo "the database keeps the module's rows until you run uninstall.sql (beside this script) (see docs/zstack-module.md)"
}

case "$ACTION" in
  install) install_module;;
  uninstall) uninstall_module;;
  *) usage;;
esac
