#!/usr/bin/env bash
# model_bench.sh - the model's speed budget (`make bench`): one full export
# for one GPU (every pattern, the whole grid) in at most 1 s, and one
# dispatch lookup in microseconds once the table is loaded.  Prints both;
# exits 1 when a budget is missed.  ATOMSIM may name the binary, CONFIG the
# GPU config (default configs/h100.ini), REPS the export repetitions.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
CONFIG=${CONFIG:-configs/h100.ini}
REPS=${REPS:-5}
LOOKUPS=${LOOKUPS:-1000000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$A" ] || { echo "model_bench: $A is not built" >&2; exit 1; }
[ -f "$CONFIG" ] || { echo "model_bench: no $CONFIG" >&2; exit 1; }

best=
for _ in $(seq "$REPS"); do
    t0=$(date +%s%N)
    "$A" export --config "$CONFIG" --output "$tmp/t.json" || exit 1
    t1=$(date +%s%N)
    ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
done
cells=$(grep -o '"cell_count": [0-9]*' "$tmp/t.json" | awk '{ s += $2 } END { print s }')
bytes=$(wc -c <"$tmp/t.json")
echo "export: $CONFIG, $cells cells, $bytes bytes of JSON, best of $REPS: ${best} ms (budget 1000 ms)"

"$A" dispatch --table "$tmp/t.json" --pattern histogram --n 1000000 --bins 4 --repeat "$LOOKUPS" >/dev/null 2>"$tmp/err" || exit 1
hist_ns=$(grep -Eo '[0-9.]+ ns per lookup' "$tmp/err" | awk '{ print $1 }')
"$A" dispatch --table "$tmp/t.json" --pattern counter --n 3000000 --selectivity 0.03 --repeat "$LOOKUPS" >/dev/null 2>"$tmp/err" || exit 1
ctr_ns=$(grep -Eo '[0-9.]+ ns per lookup' "$tmp/err" | awk '{ print $1 }')
t0=$(date +%s%N)
"$A" dispatch --table "$tmp/t.json" --pattern counter --n 3000000 --selectivity 0.03 >/dev/null || exit 1
t1=$(date +%s%N)
echo "dispatch lookup, table loaded: histogram (3 axes) ${hist_ns} ns, counter (2 axes) ${ctr_ns} ns (budget: microseconds)"
echo "dispatch process, load and one lookup: $(( (t1 - t0) / 1000000 )) ms"
awk -v b="$best" -v h="$hist_ns" -v c="$ctr_ns" 'BEGIN { exit !(b <= 1000 && h < 10000 && c < 10000) }'
