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
# DIR/NNN/SIDE.files lists the files each run wrote or changed, and DIR/NNN/SIDE.out/
# holds a copy of each with its path and text masked: an RFC 3339 time (or
# a compact 20060102T150405Z one) reads <time>, a ULID <ulid>, a UUID <uuid>
# and a run of 16 or more hex digits <hex>, so that wall-clock times and
# ids do not differ. A story whose runs left other files (after masking) is
# named with a unified diff of the first file that differs (COMPARE_DIFF
# lines at most, default 40): a file a run writes is a signal as its
# verdict is, which `gen diff` never compares.
# Each engine gets COMPARE_LIMIT (default 600s) per story: a mutated story
# can run a command that never ends (host.run of `yes`). Earlier reports are
# removed first: an engine that stops its run writes none, and a report
# left from the last comparison would be read as this one's.
# A story's bin/ (gen write -bindings: a claude stand-in) goes first on
# PATH for both engines.
# COMPARE_WRAP is a command the existing engine runs under (recheck.sh's
# RECHECK_BUSY sets `taskset -c 0`); ours never is.
# By hand only: no test or CI step runs it.
set -u
# git's dates, identity lookup and configuration are fixed for both
# engines, so the commits a story's host.git makes (-kind host -real
# -vcs) have the same ids on both sides.
export GIT_AUTHOR_DATE=2001-02-03T04:05:06Z GIT_COMMITTER_DATE=2001-02-03T04:05:06Z
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1
dir=$1
oracle=$(realpath "${2:-../shared/oracle/kitsoki-existing}")
bin=$(realpath "${KITSOKI_BIN:-./bin/kitsoki}")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
w=$tmp/story
# sums lists each file under $w with its checksum: a file a run wrote or
# changed is a line the list before it lacks.
# A git directory (.git, a bare rr.git, a worktree's .git file) is left
# out: its index holds file times, so two runs never agree on its bytes.
sums() { (cd "$w" && find . -type f -not -path '*.git/*' -not -name .git -exec md5sum {} + | sort); }
# mask reads text and writes it with times and ids masked (see above).
mask() {
  sed -E -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?/<time>/g' \
    -e 's/[0-9]{8}T[0-9]{6}Z/<time>/g' \
    -e 's/[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/<uuid>/g' \
    -e 's/\b[0-9A-HJKMNP-TV-Z]{26}\b/<ulid>/g' -e 's/\b[0-9a-fA-F]{16,}\b/<hex>/g'
}
# keep copies the files $d/$1.files names from $w to $d/$1.out, each at
# its masked path with its text masked.
keep() {
  local f m
  rm -rf "$d/$1.out" && mkdir -p "$d/$1.out"
  while IFS= read -r f; do
    m=$d/$1.out/$(printf '%s' "$f" | mask)
    mkdir -p "$(dirname "$m")" && mask <"$w/$f" >>"$m"
  done <"$d/$1.files"
}
# filediff prints a unified diff of the first file that differs between
# $d/existing.out and $d/ours.out (one side's missing file is empty), and
# fails when none does.
filediff() {
  local f a b
  while IFS= read -r f; do
    a=$d/existing.out/$f b=$d/ours.out/$f
    [ -f "$a" ] || a=/dev/null
    [ -f "$b" ] || b=/dev/null
    cmp -s "$a" "$b" && continue
    diff -u --label "existing: $f" --label "ours: $f" "$a" "$b" | head -n "${COMPARE_DIFF:-40}"
    return 0
  done < <( (cd "$d/existing.out" && find . -type f; cd "$d/ours.out" && find . -type f) | sort -u | cut -c3-)
  return 1
}
for d in "$dir"/*/; do
  d=${d%/}
  for side in existing ours; do
    rm -rf "$w" && mkdir -p "$w" && cp -r "$d"/. "$w"/ && rm -rf "$w"/existing.* "$w"/ours.*
    exe=$oracle extra=() wrap=()
    read -ra wrap <<<"${COMPARE_WRAP:-}"
    [ $side = ours ] && exe=$bin && extra=(--workdir "$w" -j 1) && wrap=()
    rm -f "$d/$side.json" # a run that stops writes none: never read the last comparison's
    sums >"$tmp/before"
    (cd "$w" && { [ -d bin ] && PATH=$w/bin:$PATH; }; timeout "${COMPARE_LIMIT:-600}" "${wrap[@]}" "$exe" test flows app.yaml "${extra[@]}" --json $side.json >$side.log 2>&1)
    cp "$w/$side.json" "$w/$side.log" "$d"/ 2>/dev/null
    sums | comm -13 "$tmp/before" - | grep -v "  \./$side\.\(json\|log\)$" | cut -c35- >"$d/$side.files"
    keep $side
  done
  filediff >"$tmp/diff" && echo "$d: the runs left other files" && cat "$tmp/diff"
done
go run ./internal/testing/conformance/gen diff "$dir"
