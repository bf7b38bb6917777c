#!/usr/bin/env bash
# Tests install.sh on a management-node layout made from ZStack's own conf/ (what the WAR's WEB-INF/classes holds):
# install adds exactly the bundle's files and one import line, refuses a second install and any overwrite without
# changing anything, puts the same files back after a ZStack upgrade replaced the WAR's, and uninstall leaves the tree
# byte for byte as it was.
# Usage: test-install.sh ZSTACK_SOURCE_DIR   (the unpacked ZStack source; build.sh's $ZSTACK_HOME/src)
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
SRC="${1:?usage: test-install.sh ZSTACK_SOURCE_DIR}"
[ -f "$SRC/conf/zstack.xml" ] || { echo "test-install.sh: $SRC/conf/zstack.xml not found" >&2; exit 2; }
W="$(mktemp -d)"; trap 'rm -rf "$W"' EXIT
checks=0
ok() { checks=$((checks + 1)); }
fail() { echo "test-install.sh: FAILED: $*" >&2; exit 1; }

bash "$HERE/make-bundle.sh" "$W/bundle" >/dev/null
MN="$W/webapps/zstack"; mkdir -p "$MN/WEB-INF/lib"
cp -r "$SRC/conf" "$MN/WEB-INF/classes"
echo "a ZStack jar" > "$MN/WEB-INF/lib/core-5.2.0.jar"
cp -a "$MN" "$W/pristine"
# install.sh runs with only the tools it names (no python3, no perl): a PATH of exactly those
TOOLS="$(sed -n 's/^TOOLS="\(.*\)"$/\1/p' "$W/bundle/install.sh")"
[ -n "$TOOLS" ] || fail "install.sh names no TOOLS"
mkdir "$W/bin"; for t in $TOOLS; do ln -s "$(command -v "$t")" "$W/bin/$t"; done
BASH_BIN="$(command -v bash)"
run() { PATH="$W/bin" "$BASH_BIN" "$W/bundle/install.sh" "$@"; }

# a tool missing: refused before anything is written, naming it
rm "$W/bin/sed"
out="$(run install --zstack-home "$MN" 2>&1)" && fail "install without sed was accepted"
echo "$out" | grep -q "missing tool(s): sed" || fail "the refusal does not name sed: $out"
diff -r "$W/pristine" "$MN" >/dev/null || fail "an install refused for a missing tool changed files"; ok
ln -s "$(command -v sed)" "$W/bin/sed"

# another ZStack version: refused, naming both versions, nothing written
mv "$MN/WEB-INF/lib/core-5.2.0.jar" "$MN/WEB-INF/lib/core-5.3.0.jar"
out="$(run install --zstack-home "$MN" 2>&1)" && fail "install on ZStack 5.3.0 was accepted"
echo "$out" | grep -q "built for ZStack 5.2.0, but .* runs ZStack 5.3.0" || fail "the refusal does not name both versions: $out"
mv "$MN/WEB-INF/lib/core-5.3.0.jar" "$MN/WEB-INF/lib/core-5.2.0.jar"
diff -r "$W/pristine" "$MN" >/dev/null || fail "an install refused for its ZStack version changed files"; ok

out="$(run install --zstack-home "$MN")" || fail "install: $out"
for jar in "$W"/bundle/lib/*.jar; do [ -f "$MN/WEB-INF/lib/$(basename "$jar")" ] || fail "missing $(basename "$jar")"; done; ok
for f in globalConfig/aioIoMode.xml springConfigXml/AioIoMode.xml serviceConfig/aioIoMode.xml $(cd "$W/bundle/conf" && ls db/upgrade/V5.2.1.1*__aio_*.sql); do
  cmp -s "$W/bundle/conf/$f" "$MN/WEB-INF/classes/$f" || fail "WEB-INF/classes/$f not installed"
done; ok
[ "$(grep -c 'springConfigXml/AioIoMode.xml' "$MN/WEB-INF/classes/zstack.xml")" = 1 ] || fail "import line not added once"; ok
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$MN/WEB-INF/classes/zstack.xml" || fail "zstack.xml is no longer XML"; ok
# only additions: every pristine file is unchanged except zstack.xml, which gained exactly one line
diff <(cd "$W/pristine" && find . -type f | sort) <(cd "$MN" && find . -type f | sort) | grep '^<' && fail "install removed files"; ok
[ "$(diff "$W/pristine/WEB-INF/classes/zstack.xml" "$MN/WEB-INF/classes/zstack.xml" | grep -c '^>')" = 1 ] || fail "zstack.xml changed beyond the import"; ok

cp -a "$MN" "$W/installed"
run install --zstack-home "$MN" >/dev/null 2>&1 && fail "a second install was accepted"
diff -r "$W/installed" "$MN" >/dev/null || fail "a refused second install changed files"; ok

# a ZStack upgrade (zstack-ctl upgrade_management_node) unpacks a new WAR: a fresh WEB-INF/classes from ZStack's conf/
# and a fresh WEB-INF/lib, none of the module's files, no record; install.sh, run again, puts back the same files
rm -rf "$MN/WEB-INF/classes" "$MN/WEB-INF/lib"
cp -r "$SRC/conf" "$MN/WEB-INF/classes"; mkdir "$MN/WEB-INF/lib"; echo "a ZStack jar" > "$MN/WEB-INF/lib/core-5.2.0.jar"
diff -r "$W/pristine" "$MN" >/dev/null || fail "the stand-in for an upgraded WAR is not ZStack's own tree"
out="$(run install --zstack-home "$MN")" || fail "install after an upgrade: $out"
diff -r "$W/installed" "$MN" || fail "install after an upgrade did not put back the same files"; ok

run uninstall --zstack-home "$MN" >/dev/null || fail "uninstall failed"
diff -r "$W/pristine" "$MN" || fail "uninstall did not restore the management node exactly"; ok
run uninstall --zstack-home "$MN" >/dev/null 2>&1 && fail "uninstalling twice was accepted"; ok

# a file of the same name already on the node: nothing is written, nothing is removed
echo "someone else's" > "$MN/WEB-INF/classes/globalConfig/aioIoMode.xml"
cp -a "$MN" "$W/occupied"
run install --zstack-home "$MN" >/dev/null 2>&1 && fail "install overwrote an existing file"
diff -r "$W/occupied" "$MN" >/dev/null || fail "a refused install changed files"; ok
rm "$MN/WEB-INF/classes/globalConfig/aioIoMode.xml"

# not a management node: a clear refusal
run install --zstack-home "$W/nowhere" >/dev/null 2>&1 && fail "install into a non-ZStack folder was accepted"; ok

echo "test-install.sh: $checks passed, 0 failed"
