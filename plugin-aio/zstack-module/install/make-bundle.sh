#!/usr/bin/env bash
# Lays out what a ZStack management node gets, from a built module (mvn package in plugin-aio/zstack-module):
#   OUT/install.sh  OUT/uninstall.sql  OUT/lib/*.jar  OUT/conf/{globalConfig,springConfigXml,serviceConfig,db/upgrade}
#   OUT/built-for-zstack (the ZStack version the module is built against: the pom's zstack.version; install.sh checks it)
# and packs it as OUT.tar.gz. Usage: make-bundle.sh OUT
set -euo pipefail
MODULE="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: make-bundle.sh OUT}"
ls "$MODULE"/target/aio-zstack-module-*.jar >/dev/null 2>&1 || { echo "make-bundle.sh: build the module first (mvn package in $MODULE)" >&2; exit 2; }
rm -rf "$OUT"; mkdir -p "$OUT/lib"
cp "$MODULE"/target/aio-zstack-module-*.jar "$MODULE"/target/lib/*.jar "$OUT/lib/"
cp -r "$MODULE/conf" "$OUT/conf"
cp "$MODULE/install/install.sh" "$MODULE/install/uninstall.sql" "$OUT/"
sed -n 's:.*<zstack.version>\(.*\)</zstack.version>.*:\1:p' "$MODULE/pom.xml" > "$OUT/built-for-zstack"
[ -s "$OUT/built-for-zstack" ] || { echo "make-bundle.sh: no <zstack.version> in $MODULE/pom.xml" >&2; exit 2; }
tar czf "$OUT.tar.gz" -C "$(dirname "$OUT")" "$(basename "$OUT")"
echo "make-bundle.sh: $OUT.tar.gz ($(ls "$OUT/lib" | wc -l) jars)"
