#!/usr/bin/env bash
# lintscore.sh DIR [NAME] — how well `kitsoki validate` predicts the
# existing engine's verdicts on a batch compare.sh has run
# (DIR/NNN/existing.json; a conformance golden's upstream.json will do):
# ./bin/kitsoki (KITSOKI_BIN names another build) validates each story
# into DIR/NNN/NAME (default validate.json, so two builds' findings can
# sit side by side), then `gen lintscore DIR NAME` counts, per story, the
# fixtures upstream fails that validate flags (recall) and the fixtures
# upstream passes that it flags (false positives).
# By hand only: no test or CI step runs it.
set -u
dir=$1
name=${2:-validate.json}
bin=${KITSOKI_BIN:-./bin/kitsoki}
for d in "$dir"/*/; do
  rm -f "$d/$name"
  timeout "${COMPARE_LIMIT:-600}" "$bin" validate -f json "$d/app.yaml" >"$d/$name" 2>"$d/$name.log"
done
go run ./internal/testing/conformance/gen lintscore "$dir" "$name"
