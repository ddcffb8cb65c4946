#!/usr/bin/env bash
# lintscore.sh DIR [NAME] — how well `kitsoki validate` predicts the
# existing engine's verdicts on a batch compare.sh has run
# (DIR/NNN/existing.json; a conformance golden's upstream.json will do,
# at any depth below DIR): ./bin/kitsoki (KITSOKI_BIN names another
# build) validates each story into DIR/NNN/NAME (default validate.json, so two builds' findings can
# sit side by side), then `gen lintscore DIR NAME` counts, per story, the
# fixtures upstream fails that validate flags (recall) and the fixtures
# upstream passes that it flags (false positives): flagged by a finding
# that says the fixture fails, in its own document, or by a story error
# that stops it running; the other findings on passing fixtures are
# counted apart ("describes").
# By hand only: no test or CI step runs it.
set -u
dir=$1
name=${2:-validate.json}
bin=${KITSOKI_BIN:-./bin/kitsoki}
# Every story at any depth: a batch's NNN, a conformance golden's nested
# dirs (clock/fail-landing); an imported child (no report beside its
# app.yaml) is validated through its importer only.
find "$dir" -name app.yaml -print0 | sort -z | while IFS= read -r -d '' app; do
  d=$(dirname "$app")
  [ -e "$d/existing.json" ] || [ -e "$d/existing.log" ] || [ -e "$d/upstream.json" ] || continue
  rm -f "$d/$name"
  timeout "${COMPARE_LIMIT:-600}" "$bin" validate -f json "$app" >"$d/$name" 2>"$d/$name.log"
done
go run ./internal/testing/conformance/gen lintscore "$dir" "$name"
