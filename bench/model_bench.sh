#!/usr/bin/env bash
# model_bench.sh - the model's speed budget (`make bench`): one full export
# for one GPU (every pattern, the whole schema-2 grid: n, wg, smem_per_wg
# and the pattern's own axes) in at most 1 s, one dispatch lookup in
# microseconds once the table is loaded, and `dispatch --batch` over a
# 10,000-row CSV in microseconds a row (beyond a one-row batch: the table's
# load taken out).  Prints all three; exits 1 when a budget is missed.  ATOMSIM
# may name the binary, CONFIG the GPU config (default configs/h100.ini),
# REPS the repetitions (best of), LOOKUPS the --repeat count, ROWS the
# batch's rows.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
CONFIG=${CONFIG:-configs/h100.ini}
REPS=${REPS:-5}
LOOKUPS=${LOOKUPS:-1000000}
ROWS=${ROWS:-10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$A" ] || { echo "model_bench: $A is not built" >&2; exit 1; }
[ -f "$CONFIG" ] || { echo "model_bench: no $CONFIG" >&2; exit 1; }

# best NAME COMMAND...: the best of REPS wall times of COMMAND, in microseconds, into NAME
best() {
    local name=$1 b='' t0 t1 us
    shift
    for _ in $(seq "$REPS"); do
        t0=$(date +%s%N)
        "$@" || { echo "model_bench: $* failed" >&2; exit 1; }
        t1=$(date +%s%N)
        us=$(( (t1 - t0) / 1000 ))
        if [ -z "$b" ] || [ "$us" -lt "$b" ]; then b=$us; fi
    done
    printf -v "$name" '%s' "$b" # microseconds
}

best export_us "$A" export --config "$CONFIG" --output "$tmp/t.json"
cells=$(grep -o '"cell_count": [0-9]*' "$tmp/t.json" | awk '{ s += $2 } END { print s }')
host=$(grep -o '"host_cell_count": [0-9]*' "$tmp/t.json" | awk '{ s += $2 } END { print s }')
axes=$(grep -o '{"name": "[a-z_]*"' "$tmp/t.json" | sort -u | sed 's/.*"\([a-z_]*\)"/\1/' | tr '\n' ' ')
bytes=$(wc -c <"$tmp/t.json")
echo "export: $CONFIG, $cells cells ($host CPU cells), axes: ${axes% }; $bytes bytes of JSON, best of $REPS: $((export_us / 1000)) ms (budget 1000 ms)"

"$A" dispatch --table "$tmp/t.json" --pattern histogram --n 1000000 --bins 4 --wg 96 --smem-per-wg 20000 --repeat "$LOOKUPS" >/dev/null 2>"$tmp/err" || exit 1
hist_ns=$(grep -Eo '[0-9.]+ ns per lookup' "$tmp/err" | awk '{ print $1 }')
"$A" dispatch --table "$tmp/t.json" --pattern counter --n 3000000 --selectivity 0.03 --repeat "$LOOKUPS" >/dev/null 2>"$tmp/err" || exit 1
ctr_ns=$(grep -Eo '[0-9.]+ ns per lookup' "$tmp/err" | awk '{ print $1 }')
echo "dispatch lookup, table loaded: histogram (5 axes, off-grid wg and smem) ${hist_ns} ns, counter (4 axes) ${ctr_ns} ns (budget: microseconds)"

best one_us "$A" dispatch --table "$tmp/t.json" --pattern counter --n 3000000 --selectivity 0.03 >/dev/null
echo "dispatch process, load and one lookup: $((one_us / 1000)) ms"

# ROWS queries over every pattern (but histogram-shared, whose bins stop
# early), shape and parameter, all inside the grid
smem_max=$(grep -o '{"name": "smem_per_wg"[^]]*]' "$tmp/t.json" | head -1 | sed 's/.*[[ ]\([0-9]*\)]$/\1/')
awk -v rows="$ROWS" -v smax="${smem_max:-0}" 'BEGIN {
    split("store counter counter-aggregated compaction histogram histogram-u8-cas histogram-u16-cas cas-append bitmask distinct-lines reduce", p, " ")
    split("32 64 80 96 128 160 200 256 384 512 768 1000 1024", wg, " ")
    print "pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,rule,data_on"
    srand(1)
    for (i = 0; i < rows; i++) {
        printf "%s,%d,%d,%d,%.4g,%d,%.3g,%d,%s,%s\n", p[i % 11 + 1], int(1024 * 2 ^ (rand() * 16)), wg[int(rand() * 13) + 1],
            int(rand() * smax), rand(), int(2 ^ (rand() * 22)), rand(), int(2 ^ (rand() * 22)),
            (i % 2 ? "cost" : "seed"), (i % 3 == 0 ? "gpu" : i % 3 == 1 ? "host" : "both")
    }
}' >"$tmp/q.csv"
head -2 "$tmp/q.csv" >"$tmp/q1.csv"
# the same process with one row: the table's load, the parse and the header
best batch1_us sh -c '"$0" dispatch --table "$1" --batch "$2" >"$3"' "$A" "$tmp/t.json" "$tmp/q1.csv" "$tmp/a1.csv"
best batch_us sh -c '"$0" dispatch --table "$1" --batch "$2" >"$3"' "$A" "$tmp/t.json" "$tmp/q.csv" "$tmp/a.csv"
answered=$(($(wc -l <"$tmp/a.csv") - 1))
[ "$answered" = "$ROWS" ] || { echo "model_bench: the batch answered $answered rows of $ROWS" >&2; exit 1; }
per_row=$(awk -v b="$batch_us" -v o="$batch1_us" -v n="$ROWS" 'BEGIN { d = b - o; if (d < 0) d = 0; printf "%.2f", d / (n - 1) }')
echo "dispatch --batch: $ROWS rows in $((batch_us / 1000)) ms ($((batch1_us / 1000)) ms for one row): $per_row us per row beyond the table's load (budget 20 us)"
awk -v e="$export_us" -v h="$hist_ns" -v c="$ctr_ns" -v r="$per_row" 'BEGIN { exit !(e <= 1000000 && h < 10000 && c < 10000 && r < 20) }'
