#!/usr/bin/env bash
# Tests install.sh on a management-node layout made from ZStack's own conf/ (what the WAR's WEB-INF/classes holds):
# install adds exactly the bundle's files and one import line, refuses a second install and any overwrite without
# changing anything, and uninstall leaves the tree byte for byte as it was.
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

out="$(bash "$W/bundle/install.sh" install --zstack-home "$MN")" || fail "install: $out"
for jar in "$W"/bundle/lib/*.jar; do [ -f "$MN/WEB-INF/lib/$(basename "$jar")" ] || fail "missing $(basename "$jar")"; done; ok
for f in globalConfig/aioIoMode.xml springConfigXml/AioIoMode.xml serviceConfig/aioIoMode.xml db/upgrade/V5.2.1.100__aio_io_mode.sql db/upgrade/V5.2.1.101__aio_io_mode_record.sql db/upgrade/V5.2.1.102__aio_host_io_facts.sql; do
  cmp -s "$W/bundle/conf/$f" "$MN/WEB-INF/classes/$f" || fail "WEB-INF/classes/$f not installed"
done; ok
[ "$(grep -c 'springConfigXml/AioIoMode.xml' "$MN/WEB-INF/classes/zstack.xml")" = 1 ] || fail "import line not added once"; ok
python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$MN/WEB-INF/classes/zstack.xml" || fail "zstack.xml is no longer XML"; ok
# only additions: every pristine file is unchanged except zstack.xml, which gained exactly one line
diff <(cd "$W/pristine" && find . -type f | sort) <(cd "$MN" && find . -type f | sort) | grep '^<' && fail "install removed files"; ok
[ "$(diff "$W/pristine/WEB-INF/classes/zstack.xml" "$MN/WEB-INF/classes/zstack.xml" | grep -c '^>')" = 1 ] || fail "zstack.xml changed beyond the import"; ok

cp -a "$MN" "$W/installed"
bash "$W/bundle/install.sh" install --zstack-home "$MN" >/dev/null 2>&1 && fail "a second install was accepted"
diff -r "$W/installed" "$MN" >/dev/null || fail "a refused second install changed files"; ok

bash "$W/bundle/install.sh" uninstall --zstack-home "$MN" >/dev/null || fail "uninstall failed"
diff -r "$W/pristine" "$MN" || fail "uninstall did not restore the management node exactly"; ok
bash "$W/bundle/install.sh" uninstall --zstack-home "$MN" >/dev/null 2>&1 && fail "uninstalling twice was accepted"; ok

# a file of the same name already on the node: nothing is written, nothing is removed
echo "someone else's" > "$MN/WEB-INF/classes/globalConfig/aioIoMode.xml"
cp -a "$MN" "$W/occupied"
bash "$W/bundle/install.sh" install --zstack-home "$MN" >/dev/null 2>&1 && fail "install overwrote an existing file"
diff -r "$W/occupied" "$MN" >/dev/null || fail "a refused install changed files"; ok
rm "$MN/WEB-INF/classes/globalConfig/aioIoMode.xml"

# not a management node: a clear refusal
bash "$W/bundle/install.sh" install --zstack-home "$W/nowhere" >/dev/null 2>&1 && fail "install into a non-ZStack folder was accepted"; ok

echo "test-install.sh: $checks passed, 0 failed"
