#!/usr/bin/env bash
# error_bands.sh - a table's error bands hold each measured row to the
# table's own kernel answer at that shape (not to the model's prediction,
# nor to an answer with the host's launch in it), and `check --routing`
# counts how often the measured kernel time falls inside the band.  Ten
# off-grid counter rows between 2^20 and 2^24, measured at 1.1, 1.2, ...,
# 2.0 times the table's kernel answer and split over two files, give one
# band of p10 1.19, p50 1.55 and p90 1.91 (GSL's interpolated quantiles),
# with 8 rows inside it, 1 below and 1 above.  The host's launch is 5 us,
# so an answer's whole GPU time differs from its kernel time.  Rows outside
# the grid, of a pattern the table lacks, or in a region of fewer than 5
# rows make no band, and rows measured on another GPU are refused.  The
# CPU tier's bands follow the same law from cpubench rows held to its
# compute answer.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

X=(--config configs/h100.ini --only counter -p dispatch.host_launch_us=5)
"$A" export "${X[@]}" --output "$tmp/t0.json" || exit 1
head='pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,reps,time_us_median,time_us_min,time_us_max,check'
{
    echo "# gpu: NVIDIA H100 80GB HBM3"
    echo "$head"
    # off the grid on n, wg and shared memory
    for i in 1 2 3 4 5 6 7 8 9 10; do
        echo "counter,$((1500000 + i * 123457)),$((40 + i * 70)),1,256,0,1,$((i * 3000)),3,100,100,100,ok"
    done
} >"$tmp/probe.csv"
sed 's/,100,100,100,/,50,50,50,/' "$tmp/probe.csv" >"$tmp/cpu.csv"
"$A" check --routing --table "$tmp/t0.json" --gpu-data "$tmp/probe.csv" --cpu-data "$tmp/cpu.csv" \
    --rows-out "$tmp/rows.csv" >/dev/null || exit 1
# measured = (1 + i/10) x the table's kernel answer (rows-out's pred_gpu_us)
awk -F, -v h="$head" 'BEGIN { print "# gpu: NVIDIA H100 80GB HBM3"; print h }
    NR > 1 { t = $12 * (1 + (NR - 1) / 10); printf "%s,%s,%s,%s,%s,%s,%s,%s,3,%.9g,%.9g,%.9g,ok\n", $1, $2, $3, $4, $5, $6, $7, $8, t, t, t }' \
    "$tmp/rows.csv" >"$tmp/gpu.csv"
# the same rows over two files, and rows that must make no band: 3 in the
# region 2^16..2^20 (under 5), one beyond the grid's n, one histogram row
{ sed -n '1,7p' "$tmp/gpu.csv"; } >"$tmp/gpu-a.csv"
{
    sed -n '1,2p' "$tmp/gpu.csv"
    sed -n '8,$p' "$tmp/gpu.csv"
    echo "counter,100000,256,1,256,0,1,0,3,7,7,7,ok"
    echo "counter,200000,256,1,256,0,1,0,3,7,7,7,ok"
    echo "counter,300000,256,1,256,0,1,0,3,7,7,7,ok"
    echo "counter,1073741824,256,1,256,0,1,0,3,9000,9000,9000,ok"
    echo "histogram,2000000,256,1,256,0,1,0,3,50,50,50,ok"
} >"$tmp/gpu-b.csv"
# bands TABLE LIST: the first pattern's bands of one list, a line each:
# n_lo, rows, p10, p50, p90
bands() {
    python3 - "$1" "$2" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
for b in t['patterns'][0].get(sys.argv[2], []):
    print('%d %d %.4f %.4f %.4f' % (b['n_lo'], b['rows'], b['p10'], b['p50'], b['p90']))
PY
}
"$A" export "${X[@]}" --residuals "$tmp/gpu-a.csv" --residuals "$tmp/gpu-b.csv" --output "$tmp/t1.json" || exit 1
bands "$tmp/t1.json" error_bands >"$tmp/bands"
check_eval "bands: one band, from the ten rows of two files, in the region 2^20..2^24" \
    "[ \"\$(cut -d' ' -f1,2 $tmp/bands)\" = '1048576 10' ]"
check_eval "bands: measured / the table's own kernel answer (p10 1.19, p50 1.55, p90 1.91)" \
    "[ \"\$(cut -d' ' -f3- $tmp/bands)\" = '1.1900 1.5500 1.9100' ]"
"$A" check --routing --table "$tmp/t1.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu.csv" >"$tmp/out" || exit 1
check_eval "bands: check --routing counts 8 of 10 inside, 1 below, 1 above (the kernel part of the band)" \
    "grep -q '^GPU error band .*: 8 of 10 banded rows inside (80.0%), 1 below, 1 above$' $tmp/out"
"$A" check --routing --table "$tmp/t1.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu.csv" --format csv >"$tmp/csv" || exit 1
check_eval "bands: the CSV summary carries the coverage" "grep -q '^cost,10,.*,10,8,1,1,0,0,0,0,[0-9]*,[0-9]*,[-0-9.a-z]*$' $tmp/csv"
"$A" check --routing --table "$tmp/t1.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu.csv" --rows-out "$tmp/rows1.csv" >/dev/null
check_eval "bands: --rows-out gives each row's kernel band (p10 x its answer)" \
    "awk -F, 'NR == 2 { exit !(\$19 == 10 && (\$20 / \$12 - 1.19)^2 < 1e-8 && (\$21 / \$12 - 1.91)^2 < 1e-8) }' $tmp/rows1.csv"
"$A" dispatch --table "$tmp/t1.json" --pattern counter --n 2000000 --wg 200 --smem-per-wg 4096 >"$tmp/d" || exit 1
check_eval "bands: dispatch says where the band comes from" "grep -q \"calibration: .*this table's own answers over 10 measured rows\" $tmp/d"
"$A" dispatch --table "$tmp/t1.json" --pattern counter --n 200000 >"$tmp/d2" || exit 1
check_eval "bands: a region of 3 rows has no band" "grep -q '^gpu_band_us: no band' $tmp/d2"
# rows of another GPU are refused, with one line and no table
"$A" export "${X[@]}" --residuals validate/data/h200.csv --output "$tmp/t2.json" >/dev/null 2>"$tmp/e2"
rc=$?
check_eval "bands: another GPU's rows are refused (exit 2, one line, no table)" \
    "[ $rc -eq 2 ] && [ \$(wc -l <$tmp/e2) -eq 1 ] && grep -q 'measured on NVIDIA H200' $tmp/e2 && [ ! -e $tmp/t2.json ]"
check_eval "bands: a table without CPU bands answers no CPU band" "grep -q '^cpu_band_us: no band' $tmp/d"

# The CPU tier's bands, the same way: cpubench rows of the tier's worker
# count at (1 + i/10) x the table's CPU compute answer (rows-out's
# pred_cpu_us), the band scaling the compute part alone
cpu_prov='# cpu_model: test host
# workers: 16
# harness: cpubench'
awk -F, -v h="$head" -v prov="$cpu_prov" 'BEGIN { print prov; print h }
    NR > 1 { t = $13 * (1 + (NR - 1) / 10); printf "%s,%s,%s,%s,%s,%s,%s,%s,7,%.9g,%.9g,%.9g,ok\n", $1, $2, $3, $4, $5, $6, $7, $8, t, t, t }' \
    "$tmp/rows.csv" >"$tmp/cpu-m.csv"
"$A" export "${X[@]}" --residuals "$tmp/gpu.csv" --cpu-residuals "$tmp/cpu-m.csv" --output "$tmp/t3.json" || exit 1
bands "$tmp/t3.json" cpu_error_bands >"$tmp/cbands"
check_eval "cpu bands: measured / the table's CPU compute answer (p10 1.19, p50 1.55, p90 1.91), 2^20..2^24" \
    "[ \"\$(cat $tmp/cbands)\" = '1048576 10 1.1900 1.5500 1.9100' ]"
"$A" check --routing --table "$tmp/t3.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu-m.csv" >"$tmp/out3" || exit 1
check_eval "cpu bands: check --routing counts 8 of 10 inside, 1 below, 1 above" \
    "grep -q '^CPU error band .*: 8 of 10 banded rows inside (80.0%), 1 below, 1 above$' $tmp/out3"
"$A" check --routing --table "$tmp/t3.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu-m.csv" --rows-out "$tmp/rows3.csv" >/dev/null
check_eval "cpu bands: --rows-out gives each row's CPU band (p10 and p90 x its compute answer)" \
    "awk -F, 'NR == 2 { exit !(\$22 == 10 && (\$23 / \$13 - 1.19)^2 < 1e-8 && (\$24 / \$13 - 1.91)^2 < 1e-8) }' $tmp/rows3.csv"
"$A" dispatch --table "$tmp/t3.json" --pattern counter --n 2000000 --data-on gpu --format json >"$tmp/d3" || exit 1
check_eval "cpu bands: the band scales the compute, not the input's PCIe fetch (data on the GPU)" \
    "python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); f=a[\"cpu_us\"]-a[\"cpu_compute_us\"]; \
     sys.exit(not (f > 1 and a[\"cpu_band_rows\"] == 10 and abs(a[\"cpu_lo_us\"] - f - 1.19*a[\"cpu_compute_us\"]) < 1e-3*a[\"cpu_us\"] \
     and abs(a[\"cpu_hi_us\"] - f - 1.91*a[\"cpu_compute_us\"]) < 1e-3*a[\"cpu_us\"]))' $tmp/d3"
# a close call is an answer whose two bands overlap: dispatch says so where
# they do and only there, and check --routing counts the rows that are
"$A" check --routing --table "$tmp/t3.json" --gpu-data "$tmp/gpu.csv" --cpu-data "$tmp/cpu-m.csv" --format csv >"$tmp/csv3"
check_eval "close calls: check --routing's count is the rows --rows-out marks" \
    "[ \"\$(awk -F, 'NR == 2 { print \$14 }' $tmp/csv3)\" = \"\$(awk -F, 'NR > 1 && \$25 == 1' $tmp/rows3.csv | wc -l)\" ]"
for q in "--n 2000000 --data-on both" "--n 2000000 --data-on gpu" "--n 2000000 --data-on host" "--n 16000000 --data-on both" \
         "--n 5000000 --wg 1024 --data-on gpu"; do
    "$A" dispatch --table "$tmp/t3.json" --pattern counter $q --format json
done | python3 -c '
import json, sys
text = sys.stdin.read().replace("}\n{", "}\x00{").split("\x00")
answers = [json.loads(t) for t in text]
seen = set()
for a in answers:
    overlap = a["gpu_lo_us"] <= a["cpu_hi_us"] and a["cpu_lo_us"] <= a["gpu_hi_us"]
    if a["close_call"] != overlap: sys.exit(1)
    seen.add(a["close_call"])
sys.exit(0 if seen == {True, False} else 2)' 
check_eval "close calls: dispatch marks exactly the answers whose bands overlap (both kinds seen)" "[ $? -eq 0 ]"
# what falls inside and outside the close calls, recomputed from --rows-out:
# measured times set so that the cost rule's choice takes twice the other
# side's time on every other row (a misroute) and half of it on the rest
awk -F, -v h="$head" -v out="$tmp/gpu4.csv" -v cout="$tmp/cpu4.csv" -v prov="$cpu_prov" '
    BEGIN { print "# gpu: NVIDIA H100 80GB HBM3" >out; print h >out; print prov >cout; print h >cout }
    NR > 1 { x = $12; mis = (NR % 2 == 0); chosen = mis ? 2 * x : x; other = mis ? x : 2 * x
             g = $14 == "gpu" ? chosen : other; c = $14 == "gpu" ? other : chosen
             p = $1 "," $2 "," $3 "," $4 "," $5 "," $6 "," $7 "," $8 ",3,"
             printf "%s%.9g,%.9g,%.9g,ok\n", p, g, g, g >out; printf "%s%.9g,%.9g,%.9g,ok\n", p, c, c, c >cout }' "$tmp/rows3.csv"
"$A" check --routing --table "$tmp/t3.json" --gpu-data "$tmp/gpu4.csv" --cpu-data "$tmp/cpu4.csv" --rows-out "$tmp/rows4.csv" \
    --format csv >"$tmp/csv4"
want=$(awk -F, 'NR > 1 { n += $25; m += ($25 == 1 && $17 == 1); o += ($25 == 0 && $17 == 1)
                          if ($25 == 0) { ch += ($14 == "gpu" ? $9 : $10); b += ($9 < $10 ? $9 : $10) } }
                END { printf "%d,%d,%.2f %d", n, m, 100 * (ch / b - 1), o }' "$tmp/rows4.csv")
got=$(awk -F, '$1 == "cost" { print $14 "," $15 "," $16 }' "$tmp/csv4")
check_eval "close calls: the misroutes among them and the others' regret are the rows' own ($got)" \
    "[ \"$got\" = \"\${want%% *}\" ] && [ \"\${want#* }\" -gt 0 ] && [ \"\$(echo $got | cut -d, -f2)\" -gt 0 ]"
check_eval "close calls: the seed rule's line leaves them empty" "grep -q '^seed,.*,,,\$' $tmp/csv4"
# a GPU's dataset, or a host with another worker count, is refused
"$A" export "${X[@]}" --cpu-residuals "$tmp/gpu.csv" --output "$tmp/t4.json" >/dev/null 2>"$tmp/e4"
rc=$?
check_eval "cpu bands: a vkbench dataset is refused as CPU rows (exit 2, one line, no table)" \
    "[ $rc -eq 2 ] && [ \$(wc -l <$tmp/e4) -eq 1 ] && grep -q 'not a cpubench dataset' $tmp/e4 && [ ! -e $tmp/t4.json ]"
"$A" export "${X[@]}" --residuals "$tmp/cpu-m.csv" --output "$tmp/t6.json" >/dev/null 2>"$tmp/e6"
rc=$?
check_eval "cpu bands: a cpubench dataset is refused as GPU rows" \
    "[ $rc -eq 2 ] && grep -q 'a cpubench dataset, not a GPU' $tmp/e6 && [ ! -e $tmp/t6.json ]"
grep -v '^# workers:' "$tmp/cpu-m.csv" >"$tmp/cpu-0.csv"
"$A" export "${X[@]}" --cpu-residuals "$tmp/cpu-0.csv" --output "$tmp/t7.json" >/dev/null 2>"$tmp/e7"
rc=$?
check_eval "cpu bands: a cpubench dataset without its worker count is refused" \
    "[ $rc -eq 2 ] && grep -q 'has no .# workers:. line' $tmp/e7 && [ ! -e $tmp/t7.json ]"
sed 's/^# workers: 16$/# workers: 2/' "$tmp/cpu-m.csv" >"$tmp/cpu-2.csv"
"$A" export "${X[@]}" --cpu-residuals "$tmp/cpu-2.csv" --output "$tmp/t5.json" >/dev/null 2>"$tmp/e5"
rc=$?
check_eval "cpu bands: a host of another worker count is refused" \
    "[ $rc -eq 2 ] && grep -q 'measured with 2 workers, but the table.s CPU tier has 16' $tmp/e5 && [ ! -e $tmp/t5.json ]"
finish error_bands
