#!/usr/bin/env bash
# Runs every example end to end with the built binary. Called by `make examples`.
set -euo pipefail
bin=${1:-bin/kitsoki}
cd "$(dirname "$0")/.."
"$bin" version
if [ -d examples ]; then
  "$bin" validate examples/...
fi
echo "examples: ok"
