#!/usr/bin/env bash
# compare_intents.sh DIR [ORACLE] — run `test intents app.yaml` on every
# story `gen write -kind intentfix` wrote under DIR through the existing
# engine (ORACLE, by default the shared oracle beside the project) and
# ./bin/kitsoki (KITSOKI_BIN names another build), with the story's flags
# (DIR/NNN/args, one per line; @BASE@ is the side's own copy of
# baseline.json). It keeps each side's text (SIDE.txt), errors (SIDE.err),
# exit code (SIDE.rc), --json report (SIDE.json) and baseline
# (SIDE-baseline.json), and prints per story what differs: the exit code,
# the text, the JSON report with DurationMillis and CostUSD dropped, the
# baseline with generated_at dropped. The last line counts them.
# By hand only: no test or CI step runs it.
set -u
dir=$1
oracle=$(realpath "${2:-../shared/oracle/kitsoki-existing}")
bin=$(realpath "${KITSOKI_BIN:-./bin/kitsoki}")
norm='walk(if type=="object" then del(.DurationMillis,.CostUSD,.generated_at) else . end)'
differ=0 total=0
for d in "$dir"/*/; do
  d=${d%/}
  args=()
  [ -f "$d/args" ] && mapfile -t args <"$d/args"
  for side in existing ours; do
    exe=$oracle
    [ $side = ours ] && exe=$bin
    rm -f "$d/$side.json" "$d/$side-baseline.json"
    [ -f "$d/baseline.json" ] && cp "$d/baseline.json" "$d/$side-baseline.json"
    a=("${args[@]//@BASE@/$side-baseline.json}")
    (cd "$d" && timeout 60 "$exe" test intents app.yaml --json "$side.json" "${a[@]}" >"$side.txt" 2>"$side.err"; echo $? >"$side.rc")
  done
  total=$((total + 1))
  what=""
  cmp -s "$d/existing.rc" "$d/ours.rc" || what="$what rc($(cat "$d/existing.rc")/$(cat "$d/ours.rc"))"
  cmp -s "$d/existing.txt" "$d/ours.txt" || what="$what text"
  j() { [ -s "$1" ] && jq -S "$norm" "$1" 2>/dev/null || echo "(none)"; }
  if [ "$(j "$d/existing.json")" != "$(j "$d/ours.json")" ]; then
    # upstream writes a refused call's defaults in its map's random order
    # (docs/compat/flowtest.md): a report differing only there says so
    k() { [ -s "$1" ] && jq -S "$norm"' | walk(if type=="object" then del(.FirstActualSlots) else . end)' "$1" 2>/dev/null; }
    if [ "$(k "$d/existing.json")" = "$(k "$d/ours.json")" ]; then what="$what json(FirstActualSlots only)"; else what="$what json"; fi
  fi
  [ "$(j "$d/existing-baseline.json")" = "$(j "$d/ours-baseline.json")" ] || what="$what baseline"
  if [ -n "$what" ]; then
    differ=$((differ + 1))
    echo "$d:$what"
  fi
done
echo "compare_intents: $differ of $total stories differ"
