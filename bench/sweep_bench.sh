#!/usr/bin/env bash
# sweep_bench.sh - the sweep's speed (`make bench`): a 1,000-point sweep of
# the model in at most 1 s (best of REPS, all CPUs), and a sweep of the
# simulator at n = 2^20 (histogram, 19 bin counts) on 1 and on 2 worker
# processes, with the speed-up.  Prints the figures; exits 1 when the model
# sweep misses its budget or the outputs of -j 1 and -j 2 differ.
# ATOMSIM may name the binary, CONFIG the GPU config (default
# configs/h100.ini), REPS the model repetitions (default 5).
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
CONFIG=${CONFIG:-configs/h100.ini}
REPS=${REPS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$A" ] || { echo "sweep_bench: $A is not built" >&2; exit 1; }
cfg=()
[ -f "$CONFIG" ] && cfg=(--config "$CONFIG")
ms() { echo $(( ($2 - $1) / 1000000 )); }
status=0

# the model: 4 patterns x 25 bin counts x 10 selectivities = 1000 points
model=(sweep "${cfg[@]}" --engine model --pattern histogram,counter,compaction,histogram-u8-cas
       --bins 1..2^24:x2 --selectivity 0.001,0.002,0.005,0.01,0.02,0.05,0.1,0.2,0.5,1 --no-progress)
if "$A" "${model[@]}" --count >"$tmp/count" 2>"$tmp/err" && "$A" run --engine model --pattern counter --n 1024 >/dev/null 2>&1; then
    best=
    for _ in $(seq "$REPS"); do
        t0=$(date +%s%N)
        "$A" "${model[@]}" >"$tmp/model.csv" || { echo "sweep_bench: the model sweep failed" >&2; exit 1; }
        t1=$(date +%s%N)
        t=$(ms "$t0" "$t1")
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    t0=$(date +%s%N)
    "$A" "${model[@]}" -j 1 >"$tmp/model1.csv"
    t1=$(date +%s%N)
    cmp -s "$tmp/model.csv" "$tmp/model1.csv" || { echo "sweep_bench: model sweep output differs between -j 1 and -j $(nproc)"; status=1; }
    echo "model sweep: $(cat "$tmp/count") points, best of $REPS: ${best} ms on $(nproc) workers, $(ms "$t0" "$t1") ms on 1 (budget 1000 ms)"
    [ "$best" -le 1000 ] || status=1
else
    echo "model sweep: skipped, the model does not answer ($(head -1 "$tmp/err" 2>/dev/null))"
fi

# the simulator at 2^20: 19 points, on 1 and 2 workers
sim=(sweep "${cfg[@]}" --pattern histogram --n 2^20 --bins 1..2^18:x2 --no-progress)
for j in 1 2; do
    t0=$(date +%s%N)
    "$A" "${sim[@]}" -j "$j" >"$tmp/sim$j.csv" || { echo "sweep_bench: the simulator sweep failed" >&2; exit 1; }
    t1=$(date +%s%N)
    eval "sim_ms_$j=$(ms "$t0" "$t1")"
done
cmp -s "$tmp/sim1.csv" "$tmp/sim2.csv" || { echo "sweep_bench: simulator sweep output differs between -j 1 and -j 2"; status=1; }
rows=$(($(wc -l <"$tmp/sim1.csv") - 1))
awk -v r="$rows" -v a="$sim_ms_1" -v b="$sim_ms_2" -v c="$(nproc)" 'BEGIN {
    printf "simulator sweep: %d points at n = 2^20 (histogram, K = 1..2^18): %.2f s on 1 worker, %.2f s on 2 (%.2fx; %d CPUs online)\n",
        r, a / 1000, b / 1000, a / b, c }'
exit $status
