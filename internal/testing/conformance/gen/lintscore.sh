#!/usr/bin/env bash
# lintscore.sh DIR — how well `kitsoki validate` predicts the existing
# engine's verdicts on a batch compare.sh has run (DIR/NNN/existing.json):
# ./bin/kitsoki (KITSOKI_BIN names another build) validates each story
# into DIR/NNN/validate.json, then `gen lintscore DIR` counts, per story,
# the fixtures upstream fails that validate flags (recall) and the
# fixtures upstream passes that it flags (false positives).
# By hand only: no test or CI step runs it.
set -u
dir=$1
bin=${KITSOKI_BIN:-./bin/kitsoki}
for d in "$dir"/*/; do
  rm -f "$d/validate.json"
  timeout "${COMPARE_LIMIT:-600}" "$bin" validate -f json "$d/app.yaml" >"$d/validate.json" 2>"$d/validate.log"
done
go run ./internal/testing/conformance/gen lintscore "$dir"
