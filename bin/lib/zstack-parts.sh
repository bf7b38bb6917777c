#!/usr/bin/env bash
# Source me: where ZStack's parts are, for bin/aio-test, bin/lib/zstack-cases.sh and bin/aio-zstack-bundle. None of
# them is in the repository or on Maven Central. Each is taken from where its variable says, else from the folder
# `shared/clients/` beside the repository (the testbed's usual place):
#   AIO_ZSTACK_DIR      ZStack's testbed: zstack-src-*.tar.gz (ZStack 5.2.0's source), build.sh, run-case.sh,
#                       kvmagent/; default ../shared/clients/zstack. Needed by the ZStack module and its cases.
#   AIO_ZSTACK_SDK_JAR  ZStack's Java SDK 5.2.0 (zstack-sdk-5.2.0.jar); default
#                       ../shared/clients/zstack-sdk/zstack-sdk-5.2.0.jar. Needed by zstack-sdk-test.
ZSTACK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ZSTACK_SHARED="$(dirname "$ZSTACK_ROOT")/shared/clients"

# zstack_find: sets ZSTACK_DIR and ZSTACK_SDK_JAR to the absolute paths found, or empty with ZSTACK_DIR_WHY /
# ZSTACK_SDK_WHY saying what is missing and how to provide it.
zstack_find() {
  local dir="${AIO_ZSTACK_DIR:-$ZSTACK_SHARED/zstack}" jar="${AIO_ZSTACK_SDK_JAR:-$ZSTACK_SHARED/zstack-sdk/zstack-sdk-5.2.0.jar}"
  ZSTACK_DIR=""; ZSTACK_DIR_WHY=""; ZSTACK_SDK_JAR=""; ZSTACK_SDK_WHY=""
  if [ -f "$dir/build.sh" ] && [ -f "$dir/run-case.sh" ] && compgen -G "$dir/zstack-src-*.tar.gz" >/dev/null; then
    ZSTACK_DIR="$(cd "$dir" && pwd)"
  else
    ZSTACK_DIR_WHY="no ZStack testbed (zstack-src-*.tar.gz, build.sh, run-case.sh) in $dir: set AIO_ZSTACK_DIR to its folder"
  fi
  if [ -f "$jar" ]; then
    ZSTACK_SDK_JAR="$(cd "$(dirname "$jar")" && pwd)/$(basename "$jar")"
  else
    ZSTACK_SDK_WHY="no ZStack SDK jar at $jar: set AIO_ZSTACK_SDK_JAR to zstack-sdk-5.2.0.jar"
  fi
}

# zstack_local_repo: sets ZSTACK_REPO to the local Maven repository (MAVEN_OPTS' -Dmaven.repo.local, else this
# checkout's .mvn/maven.config, else Maven's default) and exports it in MAVEN_OPTS: ZStack's build.sh and
# run-case.sh run mvn outside this checkout.
zstack_local_repo() {
  ZSTACK_REPO="$(echo "${MAVEN_OPTS:-}" | sed -n 's/.*-Dmaven.repo.local=\([^ ]*\).*/\1/p')"
  if [ -z "$ZSTACK_REPO" ] && [ -f "$ZSTACK_ROOT/.mvn/maven.config" ]; then   # a fresh clone has none
    ZSTACK_REPO="$(sed -n 's/.*-Dmaven.repo.local=\([^ ]*\).*/\1/p' "$ZSTACK_ROOT/.mvn/maven.config" | head -1)"
  fi
  ZSTACK_REPO="${ZSTACK_REPO:-$HOME/.m2/repository}"
  export MAVEN_OPTS="${MAVEN_OPTS:-} -Dmaven.repo.local=$ZSTACK_REPO"
}

# zstack_build: builds ZStack 5.2.0 from $ZSTACK_DIR's source tarball with its build.sh, once per tarball (cached in
# ${AIO_ZSTACK_CACHE:-~/.cache/plugin-aio-zstack}/<first 16 hex of its sha256>, exported as ZSTACK_HOME), which
# installs org.zstack:*:5.2.0 into $ZSTACK_REPO (zstack_local_repo first).
zstack_build() {
  local tarball hash
  tarball="$(ls "$ZSTACK_DIR"/zstack-src-*.tar.gz | head -1)"
  hash="$(sha256sum "$tarball" | cut -c1-16)"
  export ZSTACK_HOME="${AIO_ZSTACK_CACHE:-$HOME/.cache/plugin-aio-zstack}/$hash"
  if [ -f "$ZSTACK_HOME/.built-5a29293" ] && [ ! -f "$ZSTACK_REPO/org/zstack/kvm/5.2.0/kvm-5.2.0.jar" ]; then
    echo "zstack-parts: ZStack source is built in $ZSTACK_HOME but its jars are not in $ZSTACK_REPO: rebuilding"
    FORCE=1 "$ZSTACK_DIR/build.sh"
  else
    "$ZSTACK_DIR/build.sh"
  fi
}

# zstack_module_build: builds plugin-aio/zstack-module against ZStack's jars in $ZSTACK_REPO (the cores it ships,
# decision and plugin, are installed there first: the module is outside the root reactor) and checks that every class it ships is
# Java 8 bytecode. Sets ZSTACK_MODULE_JARS to the jars a management node gets.
zstack_module_build() {
  local module="$ZSTACK_ROOT/plugin-aio/zstack-module"
  (cd "$ZSTACK_ROOT" && mvn -B -q -pl plugin-aio/decision,plugin-aio/plugin-core -am install -DskipTests)
  (cd "$module" && mvn -B -q clean package)
  ZSTACK_MODULE_JARS=("$module"/target/aio-zstack-module-*.jar "$module"/target/lib/*.jar)
  python3 "$module/install/check-class-versions.py" 52 "${ZSTACK_MODULE_JARS[@]}"
}
