#!/usr/bin/env bash
# Fails when a test binary makes go compile a repository package a second
# time. When package X has tests inside package X, go builds a test variant
# of X, and every package P of X's test binary that imports X is compiled
# again against it ("P [X.test]" in go list -test -deps): under -race, for
# X = phases, fold or host that was the engine, compose and flowtest once
# more each. The fix is to move the tests that import P out of X's folder
# (a test-only package beside it, as pkg/phases/phases_e2e, or the test
# package of a package that already links P), or X's internal tests into
# package X_test.
#
# Allowed, each a small package: agenttest for pkg/agent (the test support
# its transport tests share), the conformance helper for pkg/flowtest
# (TestConformanceGoldens lives there).
set -euo pipefail
GO=${GO:-go}
allowed='^kitsoki/internal/testing/agenttest \[kitsoki/pkg/agent\.test\]$|^kitsoki/internal/testing/conformance \[kitsoki/pkg/flowtest\.test\]$'
list=$("$GO" list -test -deps -f '{{.ImportPath}}' ./...)
extra=$(printf '%s\n' "$list" | awk '$2 ~ /^\[.*\.test\]$/ { t = substr($2, 2, length($2) - 7); if ($1 != t && $1 != t "_test") print }' |
  sort -u | { grep -Ev "$allowed" || true; })
if [ -n "$extra" ]; then
  echo "test-variants: these packages are compiled a second time for another package's test binary:"
  printf '%s\n' "$extra" | sed 's/^/  /'
  echo "The package named in [X.test] has tests inside package X, and one of its tests imports the"
  echo "package on the left, which imports X. Move the tests that import it out of X's folder (a"
  echo "test-only package beside it, as pkg/phases/phases_e2e), or X's internal tests into X_test."
  exit 1
fi
