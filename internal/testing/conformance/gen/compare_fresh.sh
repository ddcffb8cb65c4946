#!/usr/bin/env bash
# compare_fresh.sh DIR [ORACLE] — compare.sh for stories whose real
# handlers write files into the cwd (gen write -kind host -real): each
# engine runs on its own fresh copy of the story at one path (so the
# second run does not see the first's files, and the absolute paths in a
# result agree), from the story's directory, and ./bin/kitsoki
# (KITSOKI_BIN names another build) writes there too (--workdir, one
# fixture at a time, as upstream). DIR/NNN/SIDE.files lists the files
# each run left; then the differences (gen diff DIR).
# By hand only: no test or CI step runs it.
set -u
dir=$1
oracle=$(realpath "${2:-../shared/oracle/kitsoki-existing}")
bin=$(realpath "${KITSOKI_BIN:-./bin/kitsoki}")
w=$(mktemp -d)/story
for d in "$dir"/*/; do
  d=${d%/}
  for side in existing ours; do
    rm -rf "$w" && mkdir -p "$w" && cp -r "$d"/. "$w"/ && rm -f "$w"/existing.* "$w"/ours.*
    exe=$oracle extra=()
    [ $side = ours ] && exe=$bin && extra=(--workdir "$w" -j 1)
    rm -f "$d/$side.json" # a run that stops writes none: never read the last comparison's
    (cd "$w" && timeout "${COMPARE_LIMIT:-600}" "$exe" test flows app.yaml "${extra[@]}" --json $side.json >$side.log 2>&1)
    cp "$w/$side.json" "$w/$side.log" "$d"/ 2>/dev/null
    (cd "$w" && find . -newer app.yaml -type f ! -name "$side.*" | sort) >"$d/$side.files"
  done
  cmp -s "$d/existing.files" "$d/ours.files" || echo "$d: the runs left other files"
done
rm -rf "$(dirname "$w")"
go run ./internal/testing/conformance/gen diff "$dir"
