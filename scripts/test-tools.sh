#!/usr/bin/env bash
# The Debian packages whose programs the tests check kitsoki's outputs with:
# lcov (genhtml reads `kitsoki test --coverprofile` LCOV) and libxml2-utils
# (xmllint parses the Cobertura XML). Installed when missing and apt-get can
# run (as root, or through passwordless sudo); otherwise the tests that need
# them skip, naming the package.
set -u
need=()
command -v genhtml >/dev/null 2>&1 || need+=(lcov)
command -v xmllint >/dev/null 2>&1 || need+=(libxml2-utils)
[ ${#need[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "test-tools: no apt-get here; the tests that need ${need[*]} will skip"
  exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
  else
    echo "test-tools: not root and no passwordless sudo; the tests that need ${need[*]} will skip"
    exit 0
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get install -y --no-install-recommends "${need[@]}" >/dev/null 2>&1 ||
  { $sudo apt-get update >/dev/null 2>&1 && $sudo apt-get install -y --no-install-recommends "${need[@]}" >/dev/null 2>&1; } ||
  echo "test-tools: could not install ${need[*]}; the tests that need them will skip"
exit 0
