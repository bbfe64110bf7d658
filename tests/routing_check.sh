#!/usr/bin/env bash
# routing_check.sh - `atomsim check --routing` scores a table's two rules on
# a truth set: with measurements equal to the table's own predictions the
# cost rule makes no misroute and no regret; swapping one row's two sides
# makes exactly one; goals given on the command line decide the exit
# status; bad input is refused with one line and exit 2 (a non-regular
# file too, which once hung the dataset reader).  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

"$A" export --config configs/h100.ini --only counter,histogram,compaction --output "$tmp/t.json" || exit 1
cat >"$tmp/q.csv" <<'Q'
pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg
counter,1048576,256,0.5,256,0,1,0
histogram,16777216,256,1,256,0,1,0
compaction,2048,64,1,256,0,1,0
compaction,4194304,128,0.25,256,0,1,8192
Q
"$A" dispatch --table "$tmp/t.json" --batch "$tmp/q.csv" --data-on both --format csv >"$tmp/a.csv" || exit 1
# measured = predicted: GPU from the kernel time, CPU from the CPU tier's
head='pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,reps,time_us_median,time_us_min,time_us_max,check'
mk() { # FIELD(12 gpu_us | 15 cpu_us) [SWAP_ROW]
    echo "# gpu: test"
    echo "$head"
    paste -d, <(tail -n +2 "$tmp/q.csv") <(tail -n +2 "$tmp/a.csv") | awk -F, -v f="$1" -v sw="${2:-0}" '{
        g = $(8 + 12); c = $(8 + 15); v = (f == 12) ? g : c
        if (NR == sw) v = (f == 12) ? c : g
        printf "%s,%s,%s,%s,%s,%s,%s,%s,3,%s,%s,%s,ok\n", $1, $2, $3, $4, $5, $6, $7, $8, v, v, v }'
}
mk 12 >"$tmp/gpu.csv"
mk 15 >"$tmp/cpu.csv"
"$A" check --routing --table "$tmp/t.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu.csv" >"$tmp/out" 2>"$tmp/err"
check_eval "routing: exit 0, quiet" "[ \$? -eq 0 ] && [ ! -s $tmp/err ]"
check_eval "routing: four rows scored" "grep -q '^truth set: 4 configurations' $tmp/out"
check_eval "routing: the cost rule makes no misroute and no regret on its own predictions" "grep -Eq '^cost +0 +0.00 +0.00$' $tmp/out"
check_eval "routing: both rules reported" "grep -q '^seed ' $tmp/out"
# row 2 (the 2^24 histogram) with its sides swapped: one misroute for the cost rule
mk 12 2 >"$tmp/gpu2.csv"
mk 15 2 >"$tmp/cpu2.csv"
"$A" check --routing --table "$tmp/t.json" --gpu-data "$tmp/gpu2.csv" --cpu-data "$tmp/cpu2.csv" --format csv >"$tmp/out2"
check_eval "routing: a swapped row is one misroute" "grep -q '^cost,4,1,25.00,' $tmp/out2"
"$A" check --routing --table "$tmp/t.json" --gpu-data "$tmp/gpu2.csv" --cpu-data "$tmp/cpu2.csv" --max-misroute 0.2 >/dev/null
check_eval "routing: a missed goal exits 1" "[ \$? -eq 1 ]"
"$A" check --routing --table "$tmp/t.json" --gpu-data "$tmp/gpu2.csv" --cpu-data "$tmp/cpu2.csv" --max-misroute 0.3 >/dev/null
check_eval "routing: a met goal exits 0" "[ \$? -eq 0 ]"
"$A" check --routing --table "$tmp/t.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu.csv" --rows-out "$tmp/rows.csv" >/dev/null
check_eval "routing: --rows-out writes every row" "[ \$(grep -c . $tmp/rows.csv) -eq 5 ]"

expect2() {
    local name=$1
    shift
    timeout 20 "$A" check --routing "$@" >"$tmp/o" 2>"$tmp/e"
    local rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/e")" -eq 1 ] && [ ! -s "$tmp/o" ]; then ok "$name"; else bad "$name: exit $rc, $(head -1 "$tmp/e")"; fi
}
expect2 "routing: /dev/zero as data" --table "$tmp/t.json" --gpu-data /dev/zero --cpu-data "$tmp/cpu.csv"
expect2 "routing: a directory as data" --table "$tmp/t.json" --gpu-data "$tmp" --cpu-data "$tmp/cpu.csv"
expect2 "routing: no table" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu.csv"
expect2 "routing: a goal out of range" --table "$tmp/t.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu.csv" --max-regret 2
expect2 "routing: unknown option" --table "$tmp/t.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu.csv" --frobnicate
finish routing_check
