#!/usr/bin/env bash
# error_bands.sh - a table's error bands hold each measured row to the
# table's own answer at that shape (not to the model's prediction), and
# `check --routing` counts how often the measured kernel time falls inside
# the band.  Ten off-grid counter rows measured at 1.1, 1.2, ..., 2.0 times
# the table's kernel answer give one band of p10 1.19, p50 1.55 and p90
# 1.91 (GSL's interpolated quantiles), with 8 rows inside it, 1 below and
# 1 above.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

"$A" export --config configs/h100.ini --only counter --output "$tmp/t0.json" || exit 1
head='pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,reps,time_us_median,time_us_min,time_us_max,check'
{
    echo "# gpu: test"
    echo "$head"
    # n between 2^20 and 2^24, off the grid on n, wg and shared memory
    for i in 1 2 3 4 5 6 7 8 9 10; do
        echo "counter,$((1500000 + i * 123457)),$((40 + i * 70)),1,256,0,1,$((i * 3000)),3,100,100,100,ok"
    done
} >"$tmp/probe.csv"
sed 's/,100,100,100,/,50,50,50,/' "$tmp/probe.csv" >"$tmp/cpu.csv"
"$A" check --routing --table "$tmp/t0.json" --gpu-data "$tmp/probe.csv" --cpu-data "$tmp/cpu.csv" \
    --rows-out "$tmp/rows.csv" >/dev/null || exit 1
# measured = (1 + i/10) x the table's kernel answer (rows-out's pred_gpu_us)
awk -F, -v h="$head" 'BEGIN { print "# gpu: test"; print h }
    NR > 1 { t = $12 * (1 + (NR - 1) / 10); printf "%s,%s,%s,%s,%s,%s,%s,%s,3,%.9g,%.9g,%.9g,ok\n", $1, $2, $3, $4, $5, $6, $7, $8, t, t, t }' \
    "$tmp/rows.csv" >"$tmp/gpu.csv"
"$A" export --config configs/h100.ini --only counter --residuals "$tmp/gpu.csv" --output "$tmp/t1.json" || exit 1
python3 - "$tmp/t1.json" >"$tmp/bands" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
for b in t['patterns'][0].get('error_bands', []):
    print('%d %d %.4f %.4f %.4f' % (b['n_lo'], b['rows'], b['p10'], b['p50'], b['p90']))
PY
check_eval "bands: one band, from the ten rows, in the region 2^20..2^24" "[ \"\$(cut -d' ' -f1,2 $tmp/bands)\" = '1048576 10' ]"
check_eval "bands: measured / the table's own answer (p10 1.19, p50 1.55, p90 1.91)" \
    "[ \"\$(cut -d' ' -f3- $tmp/bands)\" = '1.1900 1.5500 1.9100' ]"
"$A" check --routing --table "$tmp/t1.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu.csv" >"$tmp/out" || exit 1
check_eval "bands: check --routing counts 8 of 10 inside, 1 below, 1 above" \
    "grep -q '^error band .*: 8 of 10 banded rows inside (80.0%), 1 below, 1 above$' $tmp/out"
"$A" dispatch --table "$tmp/t1.json" --pattern counter --n 2000000 --wg 200 --smem-per-wg 4096 >"$tmp/d" || exit 1
check_eval "bands: dispatch says where the band comes from" "grep -q \"calibration: .*this table's own answers\" $tmp/d"
finish error_bands
