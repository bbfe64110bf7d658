#!/usr/bin/env bash
# c_api_example.sh - examples/route, built as a user builds it (make
# examples), against a table exported on the fly: it answers its four
# operations exactly as `atomsim dispatch` does on the same table, says why,
# and fails with one clear line on a missing table or one of another schema
# version.  ATOMSIM names the CLI; the example is beside it in examples/.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
R=$(dirname "$A")/examples/route
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

if [ ! -x "$A" ] || [ ! -x "$R" ]; then
    echo "FAIL $A or $R is not built (make $A examples)"
    exit 1
fi
T=$tmp/h100.json
"$A" export --config configs/h100.ini --residuals validate/data/h100.csv \
    --cpu-residuals validate/truth/routing-3-cpu-h100host-16core.csv \
    --cpu-residuals validate/truth/routing-4-cpu-h100host-16core.csv --output "$T"

"$R" "$T" >"$tmp/out" 2>"$tmp/err"
check_eval "route exits 0 and is quiet on stderr" "[ \$? -eq 0 ] && [ ! -s $tmp/err ]"
check_eval "route names the table's GPU and CPU tier" "grep -q '^table: .*(GPU NVIDIA H100.*CPU tier ' $tmp/out"
check_eval "route answers four operations, each with why" \
    "[ \$(grep -c ': run on the [GC]PU$' $tmp/out) -eq 4 ] && [ \$(grep -c '^  why: ' $tmp/out) -eq 4 ]"

# each answer against the CLI's on the same table
# (no CPU band at 2^24 from two hosts, no GPU band for the small histogram
# from the contract dataset alone)
check_eval "route gives both times' bands where the table has them" \
    "[ \$(grep -c '^  GPU time, validation p10..p90: ' $tmp/out) -eq 3 ] && [ \$(grep -c '^  CPU time, validation p10..p90: ' $tmp/out) -eq 3 ]"
side() { grep "^$1.*: run on the" "$tmp/out" | sed 's/.*run on the //' | tr 'A-Z' 'a-z'; }
cli() { "$A" dispatch --table "$T" "$@" | sed -n 's/^decision: //p'; }
check_eval "compaction 10M at 25%: the CLI's decision" \
    "[ \"\$(side compaction)\" = \"\$(cli --pattern compaction --n 10000000 --selectivity 0.25)\" ]"
check_eval "histogram 2^24, 256 bins, wg 96, 40 KiB: the CLI's decision" \
    "[ \"\$(side histogram)\" = \"\$(cli --pattern histogram --n 16777216 --bins 256 --wg 96 --smem-per-wg 40960)\" ]"
check_eval "cas-append 2^20 at 10%: the CLI's decision" \
    "[ \"\$(side cas-append)\" = \"\$(cli --pattern cas-append --n 1048576 --selectivity 0.1)\" ]"
check_eval "histogram 16,384, 256 bins: the CLI's decision" \
    "[ \"\$(side 'small histogram')\" = \"\$(cli --pattern histogram --n 16384 --bins 256)\" ]"
# the CPU band as the CLI prints it (route rounds to 3 digits: ms here)
cpu_lo=$("$A" dispatch --table "$T" --pattern compaction --n 10000000 --selectivity 0.25 --format json |
    python3 -c 'import json,sys; a=json.load(sys.stdin); print("%.3g ms to %.3g ms" % (a["cpu_lo_us"] / 1e3, a["cpu_hi_us"] / 1e3))')
check_eval "the compaction's CPU band is the CLI's ($cpu_lo)" "grep -q \"^  CPU time, validation p10..p90: $cpu_lo \" $tmp/out"
# a close call is noted where the CLI calls it one
close=0
for q in "--pattern compaction --n 10000000 --selectivity 0.25" \
         "--pattern histogram --n 16777216 --bins 256 --wg 96 --smem-per-wg 40960" \
         "--pattern cas-append --n 1048576 --selectivity 0.1" \
         "--pattern histogram --n 16384 --bins 256"; do
    "$A" dispatch --table "$T" $q --format json | grep -q '"close_call": true' && close=$((close + 1))
done
# the small histogram is one (its sides 10.5 and 10.3 us), so the count is not vacuous
check_eval "route notes the CLI's close calls ($close, at least one)" \
    "[ $close -ge 1 ] && [ \$(grep -c '^  note: the two bands overlap' $tmp/out) -eq $close ]"
check_eval "the compaction's GPU cost is the CLI's" \
    "grep -q \"the GPU is faster: \$(\"$A\" dispatch --table $T --pattern compaction --n 10000000 --selectivity 0.25 | sed -n 's/^gpu_us: \([0-9]*\)\..*/\1/p') us\" $tmp/out"

# refusals: one line on stderr, exit 1
"$R" "$tmp/none.json" >"$tmp/out" 2>"$tmp/err"
check_eval "a missing table: exit 1, one line naming it" \
    "[ \$? -eq 1 ] && [ \$(wc -l <$tmp/err) -eq 1 ] && grep -q 'route: .*none.json: cannot open' $tmp/err"
sed 's/"schema_version": 3/"schema_version": 2/' "$T" >"$tmp/v2.json"
"$R" "$tmp/v2.json" >"$tmp/out" 2>"$tmp/err"
check_eval "a table of schema version 2: exit 1, says to export again" \
    "[ \$? -eq 1 ] && grep -q 'schema version 2; libatomsim .* reads version 3 only (export the table again' $tmp/err"
finish c_api_example
