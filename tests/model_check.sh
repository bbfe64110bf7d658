#!/usr/bin/env bash
# model_check.sh - `atomsim check` as `make test` runs it: every cost
# formula within its recorded tolerance against the simulator and the
# measured H100 dataset (exit 0), the seeds reported but never failing, and
# a formula pushed off its mechanism caught (exit 1).  Also `run --engine
# model` for every pattern.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"
check() { check_eval "$@"; }

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi

if [ -f configs/h100.ini ] && [ -f validate/data/h100.csv ]; then
    rc=0
    "$A" check --config configs/h100.ini >"$tmp/check.txt" 2>"$tmp/err" || rc=$?
    check "check h100: every formula within its tolerance (exit 0)" "[ $rc -eq 0 ]"
    [ $rc -eq 0 ] || grep DRIFT "$tmp/check.txt" | sed 's/^/       /'
    check "check compares with the simulator and the measurements" "grep -q ' sim ' $tmp/check.txt && grep -q ' measured ' $tmp/check.txt"
    check "check reports the seeds' claims" "grep -q 'seed N(N+1)/2' $tmp/check.txt && grep -q 'seed 10% threshold' $tmp/check.txt && grep -Eq 'seed (holds|fails)' $tmp/check.txt"
    check "check says where a formula fails worst" "grep -q 'worst ' $tmp/check.txt"
    rc=0
    "$A" check --config configs/h100.ini --no-sim -p l2.atomic_issue_cycles=4 >"$tmp/drift.txt" 2>&1 || rc=$?
    check "a formula pushed off the data drifts (exit 1)" "[ $rc -eq 1 ] && grep -q DRIFT $tmp/drift.txt"
    "$A" check --config configs/h100.ini --no-sim --format csv >"$tmp/check.csv"
    check "check --format csv" "head -1 $tmp/check.csv | grep -q '^formula,against,metric,value,tolerance,points,within,status,where$'"
fi
rc=0
"$A" check --no-sim --no-data >"$tmp/seeds.txt" 2>&1 || rc=$?
check "seeds alone never fail the check" "[ $rc -eq 0 ] && grep -q 'seed 10% threshold' $tmp/seeds.txt"
rc=0
"$A" check --config "$tmp/none.ini" >/dev/null 2>"$tmp/err" || rc=$?
check "check: missing config is bad input (exit 2)" "[ $rc -eq 2 ] && [ \$(wc -l <$tmp/err) -eq 1 ]"
rc=0
"$A" check --data "$tmp/none.csv" --no-sim >/dev/null 2>"$tmp/err" || rc=$?
check "check: missing dataset is bad input (exit 2)" "[ $rc -eq 2 ]"

# the model engine behind `run`, every pattern
for p in store counter counter-aggregated compaction histogram histogram-shared histogram-u8-cas histogram-u16-cas cas-append bitmask reduce distinct-lines; do
    "$A" run --pattern "$p" --engine model --format csv >"$tmp/run.csv" 2>"$tmp/err"
    t=$(awk -F, 'NR == 2 { print $11 }' "$tmp/run.csv")
    check "run --engine model --pattern $p: a finite time" "[ -n '$t' ] && awk 'BEGIN { exit !($t > 0 && $t < 1e9) }' && [ ! -s $tmp/err ]"
done
rc=0
"$A" run --pattern counter --engine model --wg 48 >/dev/null 2>"$tmp/err" || rc=$?
check "run --engine model refuses what the simulator refuses (exit 2)" "[ $rc -eq 2 ] && grep -q 'multiple of the subgroup size' $tmp/err"

finish model_check
