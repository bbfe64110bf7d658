#!/usr/bin/env bash
# cli_outputs.sh - the shapes of atomsim's outputs that scripts rely on
# (docs/cli.md, "Outputs, errors, determinism"): the CSV header and one row, nothing on stderr;
# JSON that parses and carries the effective config; text that mentions
# time_us; `atomsim config` listing every key; `config --dump` reading back
# to the same dump; every configs/*.ini loading, round-tripping and running.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
D=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"
# runs COMMAND..., stdout to $tmp/out, stderr to $tmp/err, status in $rc
capture() {
    rc=0
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
}

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
if ! command -v python3 >/dev/null; then
    echo "FAIL python3 is needed to parse the JSON output (apt-get install python3)"
    exit 1
fi

prefix='pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,engine,cycles,time_us'

# --- CSV ------------------------------------------------------------------------
capture "$A" run --config $D/tiny.ini --pattern histogram --n 3000 --wg 96 --bins 37 --hot 0.25 --format csv
check "csv: exit 0" test "$rc" -eq 0
check "csv: nothing on stderr" test ! -s "$tmp/err"
check "csv: exactly two lines" test "$(wc -l <"$tmp/out")" -eq 2
header=$(sed -n 1p "$tmp/out")
row=$(sed -n 2p "$tmp/out")
check "csv: header starts with the contract's columns" test "${header:0:${#prefix}}" = "$prefix"
check "csv: header goes on after time_us" test "${header:${#prefix}:1}" = ","
check "csv: row has as many fields as the header" \
    test "$(echo "$header" | awk -F, '{print NF}')" -eq "$(echo "$row" | awk -F, '{print NF}')"
check "csv: row echoes the parameters" test "${row%%,sim,*}" = "histogram,3000,96,1,37,0.25,1,0"
for col in l2_atomic_ops requests_per_atomic_instruction cas_attempts cas_failures \
           busiest_slice_utilization queue_depth_mean queue_depth_max wg_per_sm; do
    check "csv: has a $col column" grep -q ",$col\(,\|$\)" <(echo "$header")
done
check "csv: header names have no spaces or quotes" test -z "$(echo "$header" | tr -d 'a-z0-9_,')"
check "csv: every value after engine is a number" python3 - "$tmp/out" <<'EOF'
import csv, sys, math
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 1
keys = list(rows[0].keys())
for k in keys[keys.index("engine") + 1:]:
    v = float(rows[0][k])
    assert math.isfinite(v), k
r = rows[0]
assert float(r["cycles"]) > 0
# time_us is cycles at the config's clock (the default 1755 MHz)
assert abs(float(r["time_us"]) - float(r["cycles"]) / 1755) < 1e-5 * float(r["time_us"]) + 1e-6, r
assert float(r["atomic_instructions"]) == 3000 // 32 + 1
EOF
csv_cycles=$(python3 -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))["cycles"])' "$tmp/out")
cp "$tmp/out" "$tmp/run.csv"

# --- JSON -----------------------------------------------------------------------
capture "$A" run --config $D/tiny.ini -p l2.same_address_cycles=3.5 --pattern histogram --n 3000 --wg 96 \
    --bins 37 --hot 0.25 --format json
check "json: exit 0" test "$rc" -eq 0
check "json: nothing on stderr" test ! -s "$tmp/err"
check "json: parses (python3 -m json.tool)" python3 -m json.tool "$tmp/out" /dev/null
check "json: carries the effective config, overrides included" python3 - "$tmp/out" "$tmp/run.csv" "$D/tiny.ini" <<'EOF'
import csv, json, sys
j = json.load(open(sys.argv[1]))
assert j["schema"] == "atomsim-runs" and j["schema_version"] == 2, j["schema"]
assert j["version"], "no version"
assert len(j["configs"]) == 1
c = j["configs"][0]
cfg = c["config"]
assert cfg["gpu"]["sm_count"] == 4, cfg["gpu"]          # from tiny.ini
assert cfg["gpu"]["name"] == "tiny"
assert cfg["l2"]["slice_count"] == 8
assert cfg["l2"]["same_address_cycles"] == 3.5          # from -p
assert cfg["gpu"]["subgroup_size"] == 32                # a default
assert c["config_path"] == sys.argv[3], c["config_path"]
assert c["name"] == "tiny", c["name"]
assert len(c["config_hash"]) == 16
runs = j["runs"]
assert len(runs) == 1
r = runs[0]
assert r["config"] == 0
assert r["pattern"] == "histogram" and r["n"] == 3000 and r["wg"] == 96 and r["bins"] == 37
assert r["hot"] == 0.25 and r["engine"] == "sim"
# every CSV column is in the JSON run
header = next(csv.reader(open(sys.argv[2])))
missing = [k for k in header if k not in r]
assert not missing, missing
assert r["cycles"] > 0 and r["time_us"] > 0
EOF
# JSON's config section lists exactly the keys `config --dump` lists
python3 -c '
import json, sys
cfg = json.load(open(sys.argv[1]))["configs"][0]["config"]
for s in cfg:
    for k in cfg[s]:
        print(s + "." + k)' "$tmp/out" | sort >"$tmp/json_keys"

# --- the same run in every format agrees ------------------------------------
capture "$A" run --config $D/tiny.ini --pattern histogram --n 3000 --wg 96 --bins 37 --hot 0.25 --format json
json_cycles=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runs"][0]["cycles"])' "$tmp/out")
check "json and csv give the same cycles ($csv_cycles)" python3 -c 'import sys; assert float(sys.argv[1]) == float(sys.argv[2])' "$csv_cycles" "$json_cycles"

# --- text -------------------------------------------------------------------------
capture "$A" run --config $D/tiny.ini --pattern counter --n 1024
check "text: exit 0, nothing on stderr" test "$rc" -eq 0 -a ! -s "$tmp/err"
check "text: mentions time_us" grep -q "time_us" "$tmp/out"
check "text: names the pattern and the GPU" grep -q "counter on tiny" "$tmp/out"
check "text: is the default format" test "$(wc -l <"$tmp/out")" -gt 2

# --- config listing -------------------------------------------------------------
capture "$A" config --dump
check "config --dump: exit 0, nothing on stderr" test "$rc" -eq 0 -a ! -s "$tmp/err"
awk '/^\[/ { gsub(/[][]/, ""); s = $0 } /^[a-z_0-9]+ = / { print s "." $1 }' "$tmp/out" | sort >"$tmp/dump_keys"
nkeys=$(wc -l <"$tmp/dump_keys")
check "config --dump lists keys ($nkeys)" test "$nkeys" -ge 40
check "config --dump and JSON's config name the same keys" cmp -s "$tmp/dump_keys" "$tmp/json_keys"
capture "$A" config
check "config: exit 0, nothing on stderr" test "$rc" -eq 0 -a ! -s "$tmp/err"
missing=$(while read -r k; do grep -q "^$k " "$tmp/out" || echo "$k"; done <"$tmp/dump_keys")
check "config lists every key${missing:+ (missing: $missing)}" test -z "$missing"
check "config lists each key once" test "$(grep -c '^[a-z0-9_]*\.[a-z0-9_]* ' "$tmp/out")" -eq "$nkeys"
nopt=$(grep -c '^ *{ *"[a-z0-9_]*", *"[a-z0-9_]*", *CFG_' model/options.c)
check "config lists as many keys as model/options.c declares ($nopt)" test "$nkeys" -eq "$nopt"

# --- config --dump round trip ---------------------------------------------------
capture "$A" config --config $D/tiny.ini -p l2.same_address_cycles=0.1 -p core.alu_latency_cycles=4.333333333333333 \
    -p gpu.name=round-trip -p l2.slice_hash=mod --dump
cp "$tmp/out" "$tmp/a.ini"
check "dump: exit 0" test "$rc" -eq 0
capture "$A" config --config "$tmp/a.ini" --dump
cp "$tmp/out" "$tmp/b.ini"
check "dump of the dump: exit 0, nothing on stderr" test "$rc" -eq 0 -a ! -s "$tmp/err"
check "dump -> load -> dump is identical apart from the path line" cmp -s <(tail -n +2 "$tmp/a.ini") <(tail -n +2 "$tmp/b.ini")
check "the path line names the file it came from" grep -q "from $tmp/a.ini" <(head -1 "$tmp/b.ini")
h1=$(head -1 "$tmp/a.ini" | grep -o 'hash [0-9a-f]*')
h2=$(head -1 "$tmp/b.ini" | grep -o 'hash [0-9a-f]*')
check "both dumps carry the same config hash (${h1:-none})" test -n "$h1" -a "$h1" = "$h2"
check "the dump holds the overrides" grep -qx "same_address_cycles = 0.1" "$tmp/a.ini"
# a run from the dump equals a run with the same overrides on the command line
capture "$A" run --config "$tmp/a.ini" --pattern counter --n 2048 --format csv
cp "$tmp/out" "$tmp/r1.csv"
capture "$A" run --config $D/tiny.ini -p l2.same_address_cycles=0.1 -p core.alu_latency_cycles=4.333333333333333 \
    -p gpu.name=round-trip -p l2.slice_hash=mod --pattern counter --n 2048 --format csv
check "a run from the dump equals the run with the overrides" cmp -s "$tmp/r1.csv" "$tmp/out"
capture "$A" config --dump --format json
check "config --dump --format json parses" python3 -m json.tool "$tmp/out" /dev/null

# --- include -----------------------------------------------------------------------
capture "$A" config --config $D/include_tiny.ini --dump
check "include: the included file's keys, then the includer's" \
    test "$(grep -c -x -e 'sm_count = 2' -e 'slice_count = 8' -e 'name = tiny' "$tmp/out")" -eq 3

# --- every shipped GPU config loads, round-trips and runs ---------------------
for f in configs/*.ini; do
    [ -e "$f" ] || continue
    case $f in configs/cpu-*) continue ;; esac # CPU-tier configs have their own table
    capture "$A" config --config "$f" --dump
    cp "$tmp/out" "$tmp/c1.ini"
    if [ "$rc" -ne 0 ]; then bad "$f loads ($(head -1 "$tmp/err"))"; continue; fi
    capture "$A" config --config "$tmp/c1.ini" --dump
    check "$f loads and its dump round-trips" cmp -s <(tail -n +2 "$tmp/c1.ini") <(tail -n +2 "$tmp/out")
    capture "$A" run --config "$f" --pattern counter --n 4096 --format csv
    check "$f runs a small counter" test "$rc" -eq 0 -a ! -s "$tmp/err" -a "$(wc -l <"$tmp/out")" -eq 2
    # a GPU config states its own trust level (an overlay is not a GPU config)
    case $f in *.calibrated.ini) ;; *) check "$f states gpu.trust itself" grep -q '^trust = ' "$f" ;; esac
done

# --- the trust level is shown with results -------------------------------------
capture "$A" run --config configs/h100.ini --pattern counter --n 4096
check "run's text names the config's trust level" grep -qx '  trust  *calibrated on validate/data/h100.csv' "$tmp/out"
capture "$A" run --config configs/a100.ini --pattern counter --n 4096 --format json
check "run's JSON carries gpu.trust" python3 -c "import json,sys; assert json.load(open('$tmp/out'))['configs'][0]['config']['gpu']['trust'] == 'uncalibrated'"
capture "$A" dispatch --table tables/h200.json --pattern counter --n 4096
check "dispatch names the table's trust level" grep -qx '  trust: the H100.s fit, its own launch floor; h200.csv validates' "$tmp/out"
h1=$("$A" config --config configs/h100.ini --dump | sed -n 's/.*hash \([0-9a-f]*\).*/\1/p' | head -1)
h2=$("$A" config --config configs/h100.ini -p gpu.trust=other --dump | sed -n 's/.*hash \([0-9a-f]*\).*/\1/p' | head -1)
check_eval "gpu.trust enters no config hash ($h1)" "[ -n '$h1' ] && [ '$h1' = '$h2' ]"

finish
