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
#
# Needs only bash and what every management node has (coreutils, grep, sed); each tool is checked before anything
# is written. install refuses a node whose ZStack (the version of its WEB-INF/lib/core-<version>.jar) is not the one
# the bundle was built for (the bundle's built-for-zstack).
set -euo pipefail
BUNDLE="$(cd "$(dirname "$0")" && pwd)"
IMPORT='    <import resource="springConfigXml/AioIoMode.xml"/>'
IMPORT_LINE='[[:space:]]*<import resource="springConfigXml/AioIoMode\.xml"/>[[:space:]]*'   # the line, as a pattern

die() { echo "install.sh: $*" >&2; exit 1; }
TOOLS="basename cat cmp cp cut dirname find grep mkdir mktemp rm rmdir sed sort tail"
missing=""
for t in $TOOLS; do command -v "$t" >/dev/null 2>&1 || missing="$missing $t"; done
[ -z "$missing" ] || die "missing tool(s):$missing (needed: $TOOLS); nothing was changed"
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

# The ZStack version of the node: its core jar, WEB-INF/lib/core-<version>.jar (ZStack's WAR names its jars
# artifactId-version), against the one the bundle was built for.
check_zstack_version() {
  local want have jars
  want="$(cat "$BUNDLE/built-for-zstack")"
  jars="$(cd "$LIB" && find . -maxdepth 1 -name 'core-*.jar' | sed 's|^\./||' | sort)"
  [ -n "$jars" ] || die "cannot tell the ZStack version of $HOME_DIR: no WEB-INF/lib/core-<version>.jar; this bundle is built for ZStack $want; nothing was changed"
  [ "$(echo "$jars" | grep -c .)" = 1 ] || die "cannot tell the ZStack version of $HOME_DIR: several core jars ($(echo $jars)); nothing was changed"
  have="$(echo "$jars" | sed 's/^core-//; s/\.jar$//')"
  [ "$have" = "$want" ] || die "this bundle is built for ZStack $want, but $HOME_DIR runs ZStack $have (WEB-INF/lib/$jars); use the bundle built for ZStack $have; nothing was changed"
}

# zstack.xml edited in place with one sed script: same file, same permissions; sed keeps a missing final newline
rewrite_xml() {
  local tmp; tmp="$(mktemp)"
  sed "$1" "$XML" > "$tmp" && cat "$tmp" > "$XML"; rm -f "$tmp"
}

install_module() {
  [ ! -e "$RECORD" ] || die "plugin-aio is already installed in $HOME_DIR ($RECORD); run uninstall first"
  grep -qF "springConfigXml/AioIoMode.xml" "$XML" && die "$XML already imports springConfigXml/AioIoMode.xml; fix it by hand, then retry"
  grep -q '</beans>' "$XML" || die "$XML has no </beans> to put the import before"
  [ -d "$BUNDLE/lib" ] && [ -d "$BUNDLE/conf" ] && [ -f "$BUNDLE/built-for-zstack" ] \
    || die "the bundle beside this script has no lib/, conf/ or built-for-zstack"
  check_zstack_version
  local added=() rel dst
  # everything is checked before anything is written, so a refused install changes nothing
  while IFS= read -r rel; do
    dst="$CLASSES/$rel"
    [ -e "$dst" ] && die "WEB-INF/classes/$rel already exists; nothing was changed"
  done < <(cd "$BUNDLE/conf" && find . -type f | sed 's|^\./||' | sort)
  for jar in "$BUNDLE"/lib/*.jar; do
    dst="$LIB/$(basename "$jar")"
    [ ! -e "$dst" ] || cmp -s "$jar" "$dst" || die "WEB-INF/lib/$(basename "$jar") exists and differs from the bundle's; nothing was changed"
  done
  for jar in "$BUNDLE"/lib/*.jar; do
    dst="$LIB/$(basename "$jar")"
    if [ -e "$dst" ]; then
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
  # the import goes on a line of its own, right before the (last) line that closes </beans>
  local at; at="$(grep -n '</beans>' "$XML" | tail -1 | cut -d: -f1)"
  rewrite_xml "${at}i\\
\\$IMPORT"
  printf '%s\n' "${added[@]}" > "$RECORD"
  echo "installed plugin-aio into $HOME_DIR: ${#added[@]} file(s) and the import in WEB-INF/classes/zstack.xml"
  echo "next: zstack-ctl upgrade_db (creates or keeps the module's tables, V5.2.1.100-104), then zstack-ctl start_node"
}

uninstall_module() {
  [ -f "$RECORD" ] || die "plugin-aio is not installed in $HOME_DIR (no $RECORD)"
  local found; found="$(grep -cx "$IMPORT_LINE" "$XML" || true)"
  [ "$found" = 1 ] || die "expected exactly one import of springConfigXml/AioIoMode.xml in $XML, found $found"
  rewrite_xml "\\|^$IMPORT_LINE\$|d"
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
