#!/usr/bin/env bash
# compare.sh DIR [ORACLE] — run the flow fixtures of every story gen wrote
# under DIR through the existing engine (ORACLE, by default the shared
# oracle beside the project) and ./bin/kitsoki (run `make build` first;
# KITSOKI_BIN names another build),
# writing DIR/NNN/existing.json and DIR/NNN/ours.json, then print the
# differences (go run ./internal/testing/conformance/gen diff DIR).
# Each engine gets COMPARE_LIMIT (default 600s) per story: a mutated story
# can run a command that never ends (host.run of `yes`). Earlier reports are
# removed first: an engine that stops its run writes none, and a report
# left from the last comparison would be read as this one's.
# By hand only: no test or CI step runs it.
set -u
dir=$1
oracle=${2:-../shared/oracle/kitsoki-existing}
bin=${KITSOKI_BIN:-./bin/kitsoki}
for d in "$dir"/*/; do
  rm -f "$d/existing.json" "$d/ours.json"
  timeout "${COMPARE_LIMIT:-600}" "$oracle" test flows "$d/app.yaml" --json "$d/existing.json" >"$d/existing.log" 2>&1
  timeout "${COMPARE_LIMIT:-600}" "$bin" test flows "$d/app.yaml" --json "$d/ours.json" >"$d/ours.log" 2>&1
done
go run ./internal/testing/conformance/gen diff "$dir"
