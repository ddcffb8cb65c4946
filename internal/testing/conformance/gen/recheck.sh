#!/usr/bin/env bash
# recheck.sh DIR [N] — after compare.sh DIR, run each story that `gen diff
# DIR` names through both engines N more times (default 5), each time on
# fresh copies as compare.sh runs them, and print for each story in how
# many of those reruns the engines still differ. Upstream's job listener
# runs in wall time: a stub job with no delay may not have finished by
# the next user turn, or by the terminal rest that stops the listener, on
# a busy machine (docs/compat/engine.md "A stub job's landing on a loaded
# machine"). A rule differs in every rerun, at the place first found; a
# story that agrees in any rerun, or differs elsewhere each time, is that
# race: rerun its fixture alone before shrinking it.
# Upstream runs under COMPARE_WRAP as compare.sh runs it (`nice -n -15`
# gives it the CPU as on an idle machine); RECHECK_BUSY=1 instead pins it
# to core 0 beside a busy loop there (taskset), which brings the race out.
# Each rerun's upstream report is kept as DIR/NNN/existing.rK.json.
# By hand only, from the project root after `make build`: no test or CI
# step runs it.
set -u
dir=${1:?usage: recheck.sh DIR [N]}
n=${2:-5}
here=$(dirname "$0")
tmp=$(mktemp -d)
busy=
cleanup() {
  [ -n "$busy" ] && kill "$busy"
  rm -rf "$tmp"
}
trap cleanup EXIT
# named lists the stories a gen diff output names as differing (its
# summary line, the stories neither engine or only ours could run, and
# those whose load errors differ only in text are left out).
named() {
  grep -E '^[^/ :]+: ' | grep -v -e ': not comparable' -e ': neither engine reports' \
    -e ': same verdict, other text' | cut -d: -f1
}
go run ./internal/testing/conformance/gen diff "$dir" >"$tmp/orig.out"
stories=$(named <"$tmp/orig.out")
[ -z "$stories" ] && echo "recheck: gen diff names no story under $dir" && exit 0
if [ "${RECHECK_BUSY:-}" = 1 ]; then
  taskset -c 0 sh -c 'while :; do :; done' &
  busy=$!
  export COMPARE_WRAP="taskset -c 0"
fi
for k in $(seq 1 "$n"); do
  for s in $stories; do
    mkdir -p "$tmp/$k/$s" && cp -r "$dir/$s"/. "$tmp/$k/$s"/
    rm -rf "$tmp/$k/$s"/existing.* "$tmp/$k/$s"/ours.*
  done
  "$here/compare.sh" "$tmp/$k" >"$tmp/$k.out" 2>&1
  for s in $stories; do
    cp "$tmp/$k/$s/existing.json" "$dir/$s/existing.r$k.json" 2>/dev/null
  done
done
# Each story's line counts the reruns that differ, and of those the ones
# whose first difference is the one gen diff DIR printed; another is
# shown (the first rerun's).
for s in $stories; do
  orig=$(grep -E "^$s: " "$tmp/orig.out" | head -n 1)
  differ=0 same=0 other=
  for k in $(seq 1 "$n"); do
    line=$(grep -E "^$s: " "$tmp/$k.out" | head -n 1)
    [ -z "$line" ] && continue
    differ=$((differ + 1))
    if [ "$line" = "$orig" ]; then
      same=$((same + 1))
    elif [ -z "$other" ]; then
      other="; rerun $k: ${line#"$s: "}"
    fi
  done
  echo "$s: differs in $differ of $n reruns, as first found in $same$other"
done
