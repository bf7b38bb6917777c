#!/usr/bin/env bash
# Source me: ensure_built MODULE JAR — builds MODULE (and what it needs) when JAR is missing or older than a source.
ensure_built() {
  local module=$1 jar=$2
  if [ -f "$jar" ] && [ -z "$(find pom.xml conf plugin-aio db-upgrade sdk -newer "$jar" \( -name '*.java' -o -name '*.xml' -o -name '*.yaml' -o -name '*.sql' -o -name '*.html' -o -name '*.js' -o -name '*.css' \) -not -path '*/target/*' -print -quit 2>/dev/null)" ]; then
    return 0
  fi
  echo "building $module (first use or sources changed): mvn -B -q -DskipTests install -pl $module -am" >&2
  mvn -B -q -DskipTests install -pl "$module" -am >&2
}
