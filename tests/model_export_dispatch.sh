#!/usr/bin/env bash
# model_export_dispatch.sh - `atomsim export` and `atomsim dispatch` end to
# end: tables in every format, byte-identical for identical input, no raw
# NaN/Infinity, the config and its hash embedded; dispatch answers from the
# table alone and refuses, with one stderr line and exit 2, what it cannot
# answer (missing table, other schema version, a pattern the table lacks,
# outside the grid without --extrapolate).  ATOMSIM may name the binary.
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

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
C=configs/h100.ini
[ -f "$C" ] || C=

cfg=${C:+--config $C}
"$A" export $cfg >"$tmp/a.json" 2>"$tmp/err"; check "export json exits 0, quiet" "[ \$? -eq 0 ] && [ ! -s $tmp/err ]"
"$A" export $cfg --output "$tmp/b.json"
check "export json is byte-identical for identical input" "cmp -s $tmp/a.json $tmp/b.json"
check "json has the schema name and version" "grep -q '\"schema\": \"atomsim-cost-table\"' $tmp/a.json && grep -q '\"schema_version\": 1' $tmp/a.json"
check "json embeds the config and its hash" "grep -q '\"config_hash\": \"[0-9a-f]\{16\}\"' $tmp/a.json && grep -q '\"sm_clock_mhz\"' $tmp/a.json"
check "json holds no raw NaN or Infinity" "! grep -Eiq '(nan|inf)[,\]]|infinity' $tmp/a.json"
check "inhibition is an explicit field with a reason" "grep -q '\"inhibited\": \[' $tmp/a.json && grep -q '\"density\"' $tmp/a.json && grep -q '\"cas\"' $tmp/a.json"
check "every pattern is in the table" "[ \$(grep -c '\"pattern\": ' $tmp/a.json) -eq 12 ]"
if python3 -c 'import jsonschema' 2>/dev/null; then
    check "json validates against model/schema/cost-table.schema.json" "python3 -c 'import json, jsonschema, sys; jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' $tmp/a.json model/schema/cost-table.schema.json"
fi
"$A" export $cfg --cpu configs/cpu-local-2core.ini >"$tmp/c.json"
check "another CPU config changes the table" "! cmp -s $tmp/a.json $tmp/c.json && grep -q cpu-local-2core $tmp/c.json"

"$A" export $cfg --format csv >"$tmp/a.csv"
"$A" export $cfg --format csv >"$tmp/b.csv"
check "csv is byte-identical and has its header" "cmp -s $tmp/a.csv $tmp/b.csv && grep -q '^pattern,n,selectivity,bins,hot,addresses,wg,gpu_us,cpu_us,density,density_fraction,penalty,inhibited,reason,decision$' $tmp/a.csv"
check "csv carries schema version and config hash" "grep -q '^# schema_version: 1' $tmp/a.csv && grep -q '^# gpu_config_hash: ' $tmp/a.csv"
rows=$(grep -vc '^#' "$tmp/a.csv")
check "csv has one row per cell (10k+)" "[ $rows -gt 10000 ]"
"$A" export $cfg --format c-header >"$tmp/t.h"
check "c-header declares the schema version" "grep -q 'ATOMSIM_COST_TABLE_SCHEMA_VERSION 1' $tmp/t.h"
if command -v "${CC:-cc}" >/dev/null; then
    printf '#include "t.h"\nint main(void){return (int)atomsim_histogram_decision[0] + (int)ATOMSIM_histogram_CELLS * 0;}\n' >"$tmp/use.c"
    check "c-header compiles" "${CC:-cc} -std=c11 -Wall -Werror -Wno-unused-const-variable -c -o $tmp/use.o $tmp/use.c"
fi
expect "export: bad format" 2 "format" "$A" export $cfg --format yaml
expect "export: missing cpu config" 2 "cannot open CPU config" "$A" export $cfg --cpu "$tmp/none.ini"
expect "export: unknown --only pattern" 2 "unknown pattern" "$A" export $cfg --only nosuch

T=$tmp/a.json
"$A" dispatch --table "$T" --pattern histogram --n 1000000 --bins 4 >"$tmp/out" 2>"$tmp/err"
check "dispatch histogram n=1e6 bins=4 answers gpu or cpu" "[ \$? -eq 0 ] && grep -Eq '^decision: (gpu|cpu)$' $tmp/out && grep -q '^gpu_us: ' $tmp/out && grep -q '^cpu_us: ' $tmp/out && [ ! -s $tmp/err ]"
check "dispatch: 4 bins are a categorical density inhibition" "grep -q '^reason: density$' $tmp/out && grep -q '^inhibited: true$' $tmp/out"
"$A" dispatch --table "$T" --pattern counter --n 3000000 --selectivity 0.003 --format json >"$tmp/out"
check "dispatch json answer" "grep -q '\"decision\": \"gpu\"' $tmp/out && grep -q '\"extrapolated\": false' $tmp/out"
"$A" dispatch --table "$T" --pattern cas-append --n 100000 --selectivity 0.0001 >"$tmp/out" 2>/dev/null
check "dispatch: CAS is inhibited whatever its density" "grep -q '^reason: cas$' $tmp/out"
"$A" dispatch --table "$T" --pattern counter --n 100 --extrapolate >"$tmp/out"
check "dispatch --extrapolate marks the answer" "grep -q '^extrapolated: true$' $tmp/out"
"$A" dispatch --table "$T" --pattern histogram --n 1000000 --bins 4 >"$tmp/one"
"$A" dispatch --table "$T" --pattern histogram --n 1000000 --bins 4 >"$tmp/two"
check "dispatch is deterministic" "cmp -s $tmp/one $tmp/two"
"$A" dispatch --table "$T" --pattern counter --n 1000000 --selectivity 0.5 --repeat 100000 >/dev/null 2>"$tmp/err"
check "dispatch --repeat reports ns per lookup" "grep -Eq '[0-9.]+ ns per lookup' $tmp/err"

expect "dispatch: missing table" 2 "cannot open table" "$A" dispatch --table "$tmp/none.json" --pattern counter
sed 's/"schema_version": 1/"schema_version": 2/' "$T" >"$tmp/v2.json"
expect "dispatch: other schema version" 2 "schema version 2" "$A" dispatch --table "$tmp/v2.json" --pattern counter
"$A" export $cfg --only counter,store >"$tmp/some.json"
expect "dispatch: a pattern the table lacks" 2 "no pattern 'histogram'" "$A" dispatch --table "$tmp/some.json" --pattern histogram --n 1000000 --bins 4
expect "dispatch: outside the grid" 2 "outside the table's grid" "$A" dispatch --table "$T" --pattern counter --n 100
expect "dispatch: bins beyond the grid" 2 "outside the table's grid" "$A" dispatch --table "$T" --pattern histogram --n 1048576 --bins 16777216
expect "dispatch: unknown pattern" 2 "unknown pattern" "$A" dispatch --table "$T" --pattern nosuch
expect "dispatch: no --table" 2 "required" "$A" dispatch --pattern counter
expect "dispatch: not JSON" 2 "not valid JSON" "$A" dispatch --table "$tmp/a.csv" --pattern counter

finish model_export_dispatch
