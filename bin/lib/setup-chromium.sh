#!/usr/bin/env bash
# Makes a headless Chromium and its WebDriver available for the browser tests (/usr/bin/chromium, /usr/bin/chromedriver).
# As root: installs Debian's chromium + chromium-driver when either is missing. Not root: says what to run.
set -euo pipefail

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
  echo "setup-chromium: chromium and chromedriver are installed"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "setup-chromium: /usr/bin/chromium or /usr/bin/chromedriver is missing; as root run:" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends chromium chromium-driver" >&2
  echo "  (or run this script as root once; the browser tests skip without them, and fail under CI=true)" >&2
  exit 0
fi
echo "setup-chromium: installing chromium and chromium-driver"
export DEBIAN_FRONTEND=noninteractive
# a fresh container has no package lists yet; refresh them only then, or when the install cannot find the packages
if [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v -e '^lock$' -e '^partial$' || true)" ]; then
  apt-get update -qq
fi
if ! apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends chromium chromium-driver >/dev/null
fi
/usr/bin/chromium --version 2>/dev/null || true
/usr/bin/chromedriver --version 2>/dev/null || true
echo "setup-chromium: ready"
