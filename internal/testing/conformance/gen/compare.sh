#!/usr/bin/env bash
# compare.sh DIR [ORACLE] — run the flow fixtures of every story gen wrote
# under DIR through the existing engine (ORACLE, by default the shared
# oracle beside the project) and ./bin/kitsoki (run `make build` first;
# KITSOKI_BIN names another build), writing DIR/NNN/existing.json and
# DIR/NNN/ours.json (and SIDE.log), then print the differences (go run
# ./internal/testing/conformance/gen diff DIR).
# Each engine runs on its own fresh copy of the story, always at one path
# (so the absolute paths in a result agree), from the story's directory:
# upstream leaves issues/, .artifacts/ and what real handlers write in its
# cwd, and a later story (or the other engine) would read them. Ours
# writes there too (--workdir, one fixture at a time, as upstream).
# DIR/NNN/SIDE.files lists the files each run wrote or changed, and a story whose runs
# left other files is named.
# Each engine gets COMPARE_LIMIT (default 600s) per story: a mutated story
# can run a command that never ends (host.run of `yes`). Earlier reports are
# removed first: an engine that stops its run writes none, and a report
# left from the last comparison would be read as this one's.
# By hand only: no test or CI step runs it.
set -u
dir=$1
oracle=$(realpath "${2:-../shared/oracle/kitsoki-existing}")
bin=$(realpath "${KITSOKI_BIN:-./bin/kitsoki}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
w=$tmp/story
# sums lists each file under $w with its checksum: a file a run wrote or
# changed is a line the list before it lacks.
sums() { (cd "$w" && find . -type f -exec md5sum {} + | sort); }
for d in "$dir"/*/; do
  d=${d%/}
  for side in existing ours; do
    rm -rf "$w" && mkdir -p "$w" && cp -r "$d"/. "$w"/ && rm -f "$w"/existing.* "$w"/ours.*
    exe=$oracle extra=()
    [ $side = ours ] && exe=$bin && extra=(--workdir "$w" -j 1)
    rm -f "$d/$side.json" # a run that stops writes none: never read the last comparison's
    sums >"$tmp/before"
    (cd "$w" && timeout "${COMPARE_LIMIT:-600}" "$exe" test flows app.yaml "${extra[@]}" --json $side.json >$side.log 2>&1)
    cp "$w/$side.json" "$w/$side.log" "$d"/ 2>/dev/null
    sums | comm -13 "$tmp/before" - | grep -v "  \./$side\.\(json\|log\)$" | cut -c35- >"$d/$side.files"
  done
  cmp -s "$d/existing.files" "$d/ours.files" || echo "$d: the runs left other files"
done
go run ./internal/testing/conformance/gen diff "$dir"
