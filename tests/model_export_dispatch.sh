#!/usr/bin/env bash
# model_export_dispatch.sh - `atomsim export` and `atomsim dispatch` end to
# end on schema version 3: tables in every format, byte-identical for
# identical input, no raw NaN/Infinity, the config and its hash embedded,
# one row per cell, wg and smem_per_wg axes, CPU columns over the axes the
# CPU sees; dispatch answers from the table alone by the cost rule (the
# seed rule's verdict beside it), with --rule, --data-on, --wg,
# --smem-per-wg and --batch, and refuses, with one stderr line, exit 2 and
# nothing on stdout, what it cannot answer (missing, malformed or
# non-regular table, other schema version, a pattern given twice or one the
# table lacks, outside the grid without --extrapolate, a malformed batch).
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"
check() { check_eval "$@"; }

# expect NAME STATUS REGEX COMMAND...: exit status, one stderr line matching REGEX, no stdout
expect() {
    local name=$1 want=$2 re=$3 got=0
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || got=$?
    if [ "$got" -eq "$want" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq -- "$re" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name: exit $got (want $want): $(head -2 "$tmp/err")"
    fi
}
# field FILE KEY: the value of "KEY: value" in dispatch's text answer
field() { sed -n "s/^$2: //p" "$1"; }

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
C=configs/h100.ini
[ -f "$C" ] || C=
have_py=0
command -v python3 >/dev/null && have_py=1

cfg=${C:+--config $C}
"$A" export $cfg >"$tmp/a.json" 2>"$tmp/err"; check "export json exits 0, quiet" "[ \$? -eq 0 ] && [ ! -s $tmp/err ]"
"$A" export $cfg --output "$tmp/b.json"
check "export json is byte-identical for identical input" "cmp -s $tmp/a.json $tmp/b.json"
check "json has the schema name and version 3" "grep -q '\"schema\": \"atomsim-cost-table\"' $tmp/a.json && grep -q '\"schema_version\": 3,' $tmp/a.json"
check "json embeds the config and its hash" "grep -q '\"config_hash\": \"[0-9a-f]\{16\}\"' $tmp/a.json && grep -q '\"sm_clock_mhz\"' $tmp/a.json"
check "json holds no raw NaN or Infinity" "! grep -Eiq '(nan|inf)[,\]]|infinity' $tmp/a.json"
check "json carries the dispatch policy" "grep -q '\"dispatch\": {\"rule\": \"cost\", \"data_on\": \"gpu\", \"host_launch_us\": ' $tmp/a.json && grep -q '\"seed\": {\"density_penalty_start\": 0.05, \"density_inhibit\": 0.1, \"inhibit_cas\": true}' $tmp/a.json"
check "every pattern is in the table, once" "[ \$(grep -c '\"pattern\": ' $tmp/a.json) -eq 12 ] && [ \$(grep -o '\"pattern\": \"[a-z0-9-]*\"' $tmp/a.json | sort -u | wc -l) -eq 12 ]"
check "every pattern has wg and smem_per_wg axes" "[ \$(grep -c '{\"name\": \"wg\", \"scale\": \"log2\", \"gpu_only\": true' $tmp/a.json) -eq 12 ] && [ \$(grep -c '{\"name\": \"smem_per_wg\", \"scale\": \"linear\", \"gpu_only\": true' $tmp/a.json) -eq 12 ]"
check "inhibition is an explicit code with a reason (d density, x cas)" "grep -Eq '\"seed_reason\": \"[gcdx]*d' $tmp/a.json && grep -Eq '\"seed_reason\": \"[gcdx]*x' $tmp/a.json && grep -q '\"host_cells\": {' $tmp/a.json"
if [ $have_py = 1 ]; then
    # one python3 for the JSON checks (loading 9 MB twice costs seconds):
    # the layout jsonschema cannot say (array lengths against the axes),
    # then, when jsonschema is importable, the schema on the whole table and
    # on two tables it must refuse; one result line per check
    "$A" export $cfg --only counter >"$tmp/small.json"
    sed 's/"schema_version": 3/"schema_version": 2/' "$tmp/small.json" >"$tmp/small-v1.json"
    sed 's/"seed_reason": "\([gcdx]\)/"seed_reason": "z/' "$tmp/small.json" >"$tmp/small-code.json"
    cat >"$tmp/check_table.py" <<'EOF'
import json, sys
from math import prod
table, schema, good, *refused = sys.argv[1:]
t = json.load(open(table))
def layout():
    assert t["schema_version"] == 3
    for k in ("schema", "generator", "units", "layout", "gpu", "cpu", "dispatch", "patterns"):
        assert k in t, k
    for p in t["patterns"]:
        axes = p["axes"]
        names = [a["name"] for a in axes]
        assert names[:3] == ["n", "wg", "smem_per_wg"] and len(set(names)) == len(names), names
        cells = prod(len(a["values"]) for a in axes)
        host = prod(len(a["values"]) for a in axes if not a["gpu_only"])
        assert p["cell_count"] == cells and p["host_cell_count"] == host, p["pattern"]
        for k in ("gpu_us", "source", "decision", "seed_decision", "seed_reason"):
            assert len(p["cells"][k]) == cells, (p["pattern"], k)
        for k in ("cpu_us", "density", "density_fraction"):
            assert len(p["host_cells"][k]) == host, (p["pattern"], k)
        num = (int, float)
        assert all(type(x) in num and x > 0 for x in p["cells"]["gpu_us"]), p["pattern"]
        assert all(type(x) in num and x > 0 for x in p["host_cells"]["cpu_us"]), p["pattern"]
        assert all(type(x) in num and x >= 0 for x in p["host_cells"]["density"]), p["pattern"]
        assert all(type(x) in num and 0 <= x <= 1 for x in p["host_cells"]["density_fraction"]), p["pattern"]
    return True
def run(name, f):
    try:
        print(name, "ok" if f() else "failed")
    except Exception as e:
        print(name, "failed:", repr(e)[:300])
run("layout", layout)
try:
    import jsonschema
except ImportError:
    sys.exit(0)
s = json.load(open(schema))
def valid():
    jsonschema.Draft7Validator.check_schema(s)
    # validating ~10^6 numbers one by one takes seconds: the schema sees the
    # first 1000 of each number array (layout() checked every one of them)
    for p in t["patterns"]:
        for group in ("cells", "host_cells"):
            for k, v in p[group].items():
                if isinstance(v, list):
                    del v[1000:]
    jsonschema.validate(t, s)
    jsonschema.validate(json.load(open(good)), s)
    return True
run("schema", valid)
run("refuses", lambda: not any(jsonschema.Draft7Validator(s).is_valid(json.load(open(f))) for f in refused))
EOF
    python3 "$tmp/check_table.py" "$tmp/a.json" model/schema/cost-table.schema.json "$tmp/small.json" "$tmp/small-v1.json" "$tmp/small-code.json" >"$tmp/json.out" 2>&1
    check "json: every cells array has cell_count entries, host_cells host_cell_count" "grep -q '^layout ok$' $tmp/json.out || { grep '^layout' $tmp/json.out; false; }"
    if grep -q '^schema ' "$tmp/json.out"; then
        check "json validates against model/schema/cost-table.schema.json (number arrays: their first 1000)" "grep -q '^schema ok$' $tmp/json.out || { grep '^schema' $tmp/json.out; false; }"
        check "the schema refuses version 1 and an unknown code" "grep -q '^refuses ok$' $tmp/json.out"
    fi
fi
"$A" export $cfg --cpu configs/cpu-local-2core.ini --only compaction >"$tmp/c.json"
"$A" export $cfg --only compaction >"$tmp/c0.json"
check "another CPU config changes the table" "! cmp -s $tmp/c0.json $tmp/c.json && grep -q cpu-local-2core $tmp/c.json"

# CSV on a few patterns (the whole table's CSV is 40 MB): every kind of axis
csv_only=compaction,histogram-shared,distinct-lines,reduce
"$A" export $cfg --format csv --only $csv_only >"$tmp/a.csv"
"$A" export $cfg --format csv --only compaction,reduce >"$tmp/c1.csv"
"$A" export $cfg --format csv --only compaction,reduce >"$tmp/c2.csv"
check "csv is byte-identical and has its header" "cmp -s $tmp/c1.csv $tmp/c2.csv && grep -q '^pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,gpu_us,cpu_us,density,density_fraction,source,decision,seed_decision,seed_reason$' $tmp/a.csv"
check "csv has no '#' lines (it loads with pandas' and R's defaults)" "! grep -q '^#' $tmp/a.csv"
"$A" export $cfg --format csv --only reduce --output "$tmp/m.csv"
check "csv's sidecar carries schema version, config hash and the seed threshold" "python3 -c 'import json,sys; m = json.load(open(sys.argv[1])); assert m[\"table_schema_version\"] == 3 and len(m[\"gpu_config_hash\"]) == 16 and m[\"density_inhibit\"] == 0.1 and m[\"rule\"] == \"cost\" and m[\"version\"], m' $tmp/m.csv.meta.json"
rows=$(wc -l <"$tmp/a.csv")
cells=$(grep -o '"pattern": "[a-z0-9-]*"\|"cell_count": [0-9]*' "$tmp/a.json" | tr -d '"' |
    awk -v only=",$csv_only," '$1 == "pattern:" { want = index(only, "," $2 ",") > 0 } $1 == "cell_count:" && want { s += $2 } END { print s + 0 }')
check "csv has a header and one row per cell of the JSON ($cells)" "[ $rows -eq $((cells + 1)) ] && [ $cells -gt 50000 ]"
check "csv rows have 16 fields and known codes" "awk -F, '!/^#/ && !/^pattern,/ && !(NF == 16 && \$13 ~ /^(model|sim)\$/ && \$14 ~ /^(gpu|cpu)\$/ && \$15 ~ /^(gpu|cpu)\$/ && \$16 ~ /^(gpu_faster|cpu_faster|density|cas)\$/) { bad++ } END { exit bad > 0 }' $tmp/a.csv"
"$A" export $cfg --format c-header --only reduce,counter >"$tmp/t.h"
check "c-header declares the schema version" "grep -q 'ATOMSIM_COST_TABLE_SCHEMA_VERSION 3' $tmp/t.h"
if command -v "${CC:-cc}" >/dev/null; then
    printf '#include "t.h"\nint main(void){return (atomsim_reduce_decision[0] == %sg%s ? 0 : 1) + (int)atomsim_reduce_axis_wg[0] * 0 + (int)ATOMSIM_reduce_HOST_CELLS * 0;}\n' "'" "'" >"$tmp/use.c"
    check "c-header compiles" "${CC:-cc} -std=c11 -Wall -Werror -Wno-unused-const-variable -c -o $tmp/use.o $tmp/use.c"
fi
expect "export: bad format" 2 "format" "$A" export $cfg --format yaml
expect "export: missing cpu config" 2 "cannot open CPU config" "$A" export $cfg --cpu "$tmp/none.ini"
expect "export: unknown --only pattern" 2 "unknown pattern" "$A" export $cfg --only nosuch

T=$tmp/a.json
# most answers come from a smaller table: loading all 5 MB takes a while
S=$tmp/s.json
"$A" export $cfg --only counter,store,compaction,cas-append,bitmask,distinct-lines,histogram-u8-cas >"$S"
"$A" dispatch --table "$T" --pattern histogram --n 1000000 --bins 4 >"$tmp/out" 2>"$tmp/err"
check "dispatch histogram n=1e6 bins=4 answers gpu or cpu" "[ \$? -eq 0 ] && grep -Eq '^decision: (gpu|cpu)$' $tmp/out && grep -Eq '^gpu_us: [0-9.e+-]+$' $tmp/out && grep -Eq '^cpu_us: [0-9.e+-]+$' $tmp/out && [ ! -s $tmp/err ]"
check "dispatch text names reason, rule, both verdicts and its assumptions" "grep -Eq '^reason: (gpu_faster|cpu_faster)$' $tmp/out && grep -q '^rule: cost$' $tmp/out && grep -Eq '^cost_decision: (gpu|cpu)$' $tmp/out && grep -Eq '^seed_decision: (gpu|cpu)$' $tmp/out && grep -Eq '^seed_reason: ' $tmp/out && grep -q '^assumptions:$' $tmp/out && grep -q '^  data: on gpu' $tmp/out"
check "dispatch: the cost rule's decision is its cost_decision" "[ \"\$(field $tmp/out decision)\" = \"\$(field $tmp/out cost_decision)\" ]"
check "dispatch: 4 bins are a categorical density inhibition for the seed rule" "grep -q '^seed_decision: cpu$' $tmp/out && grep -q '^seed_reason: density$' $tmp/out && grep -q '^inhibited: true$' $tmp/out"
"$A" dispatch --table "$T" --pattern histogram --n 1000000 --bins 4 --rule seed >"$tmp/out"
check "dispatch --rule seed decides by the inhibition" "grep -q '^decision: cpu$' $tmp/out && grep -q '^reason: density$' $tmp/out && grep -q '^rule: seed$' $tmp/out"
"$A" dispatch --table "$S" --pattern counter --n 3000000 --selectivity 0.003 --format json >"$tmp/out"
check "dispatch json answer" "grep -q '\"decision\": \"gpu\"' $tmp/out && grep -q '\"extrapolated\": false' $tmp/out && grep -q '\"rule\": \"cost\"' $tmp/out && grep -q '\"seed_decision\": ' $tmp/out"
"$A" dispatch --table "$S" --pattern cas-append --n 100000 --selectivity 0.0001 >"$tmp/out" 2>/dev/null
check "dispatch: CAS is inhibited whatever its density (seed rule)" "grep -q '^seed_reason: cas$' $tmp/out && grep -q '^seed_decision: cpu$' $tmp/out"
"$A" dispatch --table "$S" --pattern cas-append --n 100000 --selectivity 0.0001 --rule seed >"$tmp/out" 2>/dev/null
check "dispatch --rule seed: CAS goes to the CPU" "grep -q '^decision: cpu$' $tmp/out && grep -q '^reason: cas$' $tmp/out"
"$A" dispatch --table "$S" --pattern counter --n 100 --extrapolate >"$tmp/out"
check "dispatch --extrapolate marks the answer" "grep -q '^extrapolated: true$' $tmp/out"
"$A" dispatch --table "$S" --pattern compaction --n 1000000 --selectivity 0.3 --wg 200 >"$tmp/one"
"$A" dispatch --table "$S" --pattern compaction --n 1000000 --selectivity 0.3 --wg 200 >"$tmp/two"
check "dispatch is deterministic" "cmp -s $tmp/one $tmp/two"
"$A" dispatch --table "$S" --pattern counter --n 1000000 --selectivity 0.5 --repeat 100000 >/dev/null 2>"$tmp/err"
check "dispatch --repeat reports ns per lookup" "grep -Eq '[0-9.]+ ns per lookup' $tmp/err"

# the case that retired the seed rule as the default: a 10M-element
# compaction at 25% on the H100, predicted far faster on the GPU
if [ -n "$C" ]; then
    "$A" dispatch --table "$T" --pattern compaction --n 10000000 --selectivity 0.25 >"$tmp/out" 2>"$tmp/err"
    check "10M compaction at S=0.25: decision gpu by cost" "[ \$? -eq 0 ] && grep -q '^decision: gpu$' $tmp/out && grep -q '^reason: gpu_faster$' $tmp/out && grep -q '^rule: cost$' $tmp/out"
    check "10M compaction at S=0.25: the seed rule would say cpu (density)" "grep -q '^seed_decision: cpu$' $tmp/out && grep -q '^seed_reason: density$' $tmp/out"
    check "10M compaction at S=0.25: the GPU is predicted faster" "awk '/^gpu_us: / { g = \$2 } /^cpu_us: / { c = \$2 } END { exit !(g > 0 && g < c) }' $tmp/out"
    "$A" dispatch --table "$S" --pattern compaction --n 10000000 --selectivity 0.25 --rule seed >"$tmp/out"
    check "10M compaction at S=0.25, --rule seed: cpu" "grep -q '^decision: cpu$' $tmp/out && grep -q '^reason: density$' $tmp/out && grep -q '^rule: seed$' $tmp/out"
fi

# the kernel's shape: inside the grid it answers, beyond it it refuses
"$A" dispatch --table "$S" --pattern compaction --n 10000000 --selectivity 0.25 --wg 96 --smem-per-wg 40000 >"$tmp/out" 2>"$tmp/err"
check "--wg 96 --smem-per-wg 40000 answers without --extrapolate" "[ \$? -eq 0 ] && grep -Eq '^decision: (gpu|cpu)$' $tmp/out && grep -q '^extrapolated: false$' $tmp/out && [ ! -s $tmp/err ]"
"$A" dispatch --table "$S" --pattern compaction --n 131072 --selectivity 0.001 --wg 64 --format json >"$tmp/w64"
"$A" dispatch --table "$S" --pattern compaction --n 131072 --selectivity 0.001 --wg 80 --format json >"$tmp/w80"
"$A" dispatch --table "$S" --pattern compaction --n 131072 --selectivity 0.001 --wg 96 --format json >"$tmp/w96"
k() { sed -n 's/.*"gpu_kernel_us": \([0-9.e+-]*\),/\1/p' "$1"; }
check "--wg 80 lies between wg 64 and wg 96" "awk -v a=\$(k $tmp/w64) -v m=\$(k $tmp/w80) -v b=\$(k $tmp/w96) 'BEGIN { lo = a < b ? a : b; hi = a < b ? b : a; exit !(a != b && m > lo && m < hi) }'"
expect "dispatch: --wg 2048 is outside the grid" 2 "wg=2048 is outside the table's grid" "$A" dispatch --table "$S" --pattern compaction --n 10000000 --selectivity 0.25 --wg 2048
expect "dispatch: --smem-per-wg beyond the grid" 2 "smem_per_wg=.* is outside the table's grid" "$A" dispatch --table "$S" --pattern counter --smem-per-wg 4000000
expect "dispatch: bad --rule" 2 "--rule" "$A" dispatch --table "$S" --pattern counter --rule fastest
expect "dispatch: bad --data-on" 2 "--data-on" "$A" dispatch --table "$S" --pattern counter --data-on cpu

# data location: both moves nothing; host charges the GPU the transfer
"$A" dispatch --table "$S" --pattern compaction --n 10000000 --selectivity 0.25 --data-on both --format json >"$tmp/both"
j() { sed -n "s/.*\"$2\": \([0-9.e+-]*\),*$/\1/p" "$1"; }
check "--data-on both moves nothing: gpu_us = gpu_kernel_us, cpu_us = cpu_compute_us" "[ -n \"\$(j $tmp/both gpu_us)\" ] && [ \"\$(j $tmp/both gpu_us)\" = \"\$(j $tmp/both gpu_kernel_us)\" ] && [ \"\$(j $tmp/both cpu_us)\" = \"\$(j $tmp/both cpu_compute_us)\" ] && grep -q '\"data_on\": \"both\"' $tmp/both"
"$A" dispatch --table "$S" --pattern compaction --n 10000000 --selectivity 0.25 --data-on host --format json >"$tmp/host"
"$A" dispatch --table "$S" --pattern compaction --n 10000000 --selectivity 0.25 --format json >"$tmp/gpu"
check "--data-on host: the GPU pays PCIe; default (gpu): the CPU does" "awk -v gh=\$(j $tmp/host gpu_us) -v gk=\$(j $tmp/host gpu_kernel_us) -v ch=\$(j $tmp/host cpu_us) -v cg=\$(j $tmp/gpu cpu_us) -v cc=\$(j $tmp/gpu cpu_compute_us) 'BEGIN { exit !(gh > gk && ch < cg && cg > cc) }'"

# batch: CSV in, one CSV answer a row out, each row the single --format csv answer
cat >"$tmp/q.csv" <<'EOF'
# queries: pattern, shape, parameters, rule and data location per row
pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,rule,data_on
compaction,10000000,256,0,0.25,256,0,1,cost,gpu
compaction,10000000,96,40000,0.25,256,0,1,seed,gpu
bitmask,1000000,128,0,0.3,4,0.1,1,cost,host

cas-append,100000,512,8192,0.001,256,0,1,seed,both
distinct-lines,4194304,1024,0,1,256,0,300,cost,gpu
EOF
"$A" dispatch --table "$S" --batch "$tmp/q.csv" >"$tmp/ans.csv" 2>"$tmp/err"
check "--batch: exit 0, a header and 5 rows" "[ \$? -eq 0 ] && [ ! -s $tmp/err ] && [ \$(wc -l <$tmp/ans.csv) -eq 6 ] && head -1 $tmp/ans.csv | grep -q '^pattern,n,wg,smem_per_wg,selectivity,bins,hot,addresses,decision,reason,rule,gpu_us,.*seed_decision,seed_reason,data_on'"
: >"$tmp/single.csv"
grep -v '^#' "$tmp/q.csv" | tail -n +2 | grep . | while IFS=, read -r p n wg sm s b h ad r on; do
    "$A" dispatch --table "$S" --pattern "$p" --n "$n" --wg "$wg" --smem-per-wg "$sm" --selectivity "$s" --bins "$b" --hot "$h" --addresses "$ad" --rule "$r" --data-on "$on" --format csv | tail -n +2 >>"$tmp/single.csv"
done
check "--batch rows equal single --format csv answers" "[ \$(wc -l <$tmp/single.csv) -eq 5 ] && tail -n +2 $tmp/ans.csv | cmp -s - $tmp/single.csv"
check "--batch: per-row rule and data location are applied" "awk -F, 'NR == 3 && \$11 == \"seed\" && \$9 == \"cpu\" { a = 1 } NR == 4 && \$19 == \"host\" { b = 1 } NR == 5 && \$19 == \"both\" { c = 1 } END { exit !(a && b && c) }' $tmp/ans.csv"
printf 'pattern,n,selectivity\ncompaction,10000000,0.25\ncounter,1000000,0.5\n' >"$tmp/q2.csv"
"$A" dispatch --table "$S" --batch "$tmp/q2.csv" --rule seed --data-on both >"$tmp/ans-seed.csv"
check "--batch: --rule and --data-on apply to rows without those columns" "[ \$(wc -l <$tmp/ans-seed.csv) -eq 3 ] && awk -F, 'NR > 1 && !(\$11 == \"seed\" && \$19 == \"both\") { bad++ } NR == 2 && \$9 != \"cpu\" { bad++ } END { exit bad > 0 }' $tmp/ans-seed.csv"
# malformed batches: line number on one stderr line, nothing on stdout
printf 'pattern,n,selectivity\ncompaction,1000000,0.5\ncounter,12x,0.5\n' >"$tmp/bad1.csv"
expect "--batch: a bad number names its line" 2 "bad1.csv:3: .*12x" "$A" dispatch --table "$S" --batch "$tmp/bad1.csv"
printf 'pattern,n\ncounter,1000000\ncounter,2000000\nnosuch,1000000\n' >"$tmp/bad2.csv"
expect "--batch: an unknown pattern names its line" 2 "bad2.csv:4: .*unknown pattern" "$A" dispatch --table "$S" --batch "$tmp/bad2.csv"
printf 'pattern,n,selectivity\ncounter,1000000\n' >"$tmp/bad3.csv"
expect "--batch: a wrong field count names its line" 2 "bad3.csv:2: 2 fields, the header has 3" "$A" dispatch --table "$S" --batch "$tmp/bad3.csv"
printf '# comment\npattern,n,colour\ncounter,1000000,red\n' >"$tmp/bad4.csv"
expect "--batch: an unknown column names its line" 2 "bad4.csv:2: column 'colour'" "$A" dispatch --table "$S" --batch "$tmp/bad4.csv"
printf 'n,selectivity\n1000000,0.5\n' >"$tmp/bad5.csv"
expect "--batch: no pattern column" 2 "bad5.csv:1: .*pattern column" "$A" dispatch --table "$S" --batch "$tmp/bad5.csv"
printf 'pattern,n,n\ncounter,1000000,2000000\n' >"$tmp/bad6.csv"
expect "--batch: a column named twice" 2 "bad6.csv:1: column 'n' is named twice" "$A" dispatch --table "$S" --batch "$tmp/bad6.csv"
printf 'pattern,n,rule\ncounter,1000000,fastest\n' >"$tmp/bad7.csv"
expect "--batch: a bad rule names its line" 2 "bad7.csv:2: rule 'fastest'" "$A" dispatch --table "$S" --batch "$tmp/bad7.csv"
printf 'pattern,n\ncounter,1000000\ncounter,100\n' >"$tmp/bad8.csv"
expect "--batch: a row outside the grid fails the batch" 2 "outside the table's grid" "$A" dispatch --table "$S" --batch "$tmp/bad8.csv"
expect "--batch: a directory" 2 "not a regular file" "$A" dispatch --table "$S" --batch "$tmp"
expect "--batch: a missing file" 2 "cannot open batch" "$A" dispatch --table "$S" --batch "$tmp/none.csv"
expect "--batch with pattern flags" 2 "no pattern flags" "$A" dispatch --table "$S" --batch "$tmp/q.csv" --n 1000

# writing the answer can fail
check_full() {
    local got=0
    "$@" >/dev/full 2>"$tmp/err" || got=$?
    [ "$got" -ne 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'writing standard output: No space left on device' "$tmp/err"
}
if [ -w /dev/full ]; then
    check "dispatch to /dev/full: non-zero exit, one stderr line" "check_full $A dispatch --table $S --pattern counter --n 1000000"
    check "dispatch --batch to /dev/full: non-zero exit, one stderr line" "check_full $A dispatch --table $S --batch $tmp/q.csv"
fi

expect "dispatch: missing table" 2 "cannot open table" "$A" dispatch --table "$tmp/none.json" --pattern counter
expect "dispatch: a directory as table" 2 "not a regular file" "$A" dispatch --table "$tmp" --pattern counter
t0=$(date +%s)
expect "dispatch: /dev/zero as table" 2 "not a regular file" timeout 10 "$A" dispatch --table /dev/zero --pattern counter
check "dispatch: /dev/zero is refused at once" "[ \$(( \$(date +%s) - t0 )) -le 2 ]"
"$A" export $cfg --only counter,store >"$tmp/some.json"
sed 's/"schema_version": 3/"schema_version": 2/' "$tmp/some.json" >"$tmp/v1.json"
expect "dispatch: schema version 2" 2 "schema version 2" "$A" dispatch --table "$tmp/v1.json" --pattern counter
expect "dispatch: a pattern the table lacks" 2 "no pattern 'histogram'" "$A" dispatch --table "$tmp/some.json" --pattern histogram --n 1000000 --bins 4
if [ $have_py = 1 ]; then
    "$A" export $cfg --only counter >"$tmp/one.json"
    python3 -c 'import json, sys; t = json.load(open(sys.argv[1])); t["patterns"].append(t["patterns"][0]); json.dump(t, open(sys.argv[2], "w"))' "$tmp/one.json" "$tmp/dup.json"
    expect "dispatch: a pattern listed twice" 2 "counter: is listed twice" "$A" dispatch --table "$tmp/dup.json" --pattern counter
    python3 -c 'import json, sys; t = json.load(open(sys.argv[1])); a = t["patterns"][0]["axes"]; a[2] = dict(a[1]); json.dump(t, open(sys.argv[2], "w"))' "$tmp/one.json" "$tmp/dupaxis.json"
    expect "dispatch: an axis listed twice" 2 "axis is listed twice" "$A" dispatch --table "$tmp/dupaxis.json" --pattern counter
fi
expect "dispatch: outside the grid" 2 "outside the table's grid" "$A" dispatch --table "$S" --pattern counter --n 100
expect "dispatch: bins beyond the grid" 2 "bins=1.67772e\+07 is outside the table's grid" "$A" dispatch --table "$S" --pattern histogram-u8-cas --n 1048576 --bins 16777216
expect "dispatch: unknown pattern" 2 "unknown pattern" "$A" dispatch --table "$S" --pattern nosuch
expect "dispatch: no --table" 2 "required" "$A" dispatch --pattern counter
expect "dispatch: not JSON" 2 "not valid JSON" "$A" dispatch --table "$tmp/c1.csv" --pattern counter

finish model_export_dispatch
