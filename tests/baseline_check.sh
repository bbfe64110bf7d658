#!/usr/bin/env bash
# baseline_check.sh - `atomsim check --baseline` holds the model's cost
# table cell by cell to the committed baselines (tests/baselines/): (a) the
# shipped baselines pass; (b) a formula-affecting override fails with exit
# 1 and names the moved cells, the config key and the flipped decisions;
# (c) another GPU's baseline, a missing file, another format, schema or
# schema version are refused with one line and exit 2; (d) --write-baseline
# is deterministic and round-trips byte for byte.  About 9 model exports
# of a second each.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"
. "$(cd "$(dirname "$0")" && pwd)/lib/expect_one_line.sh"
H=tests/baselines/h100.baseline

# (a) the shipped baselines: nothing moved
for g in h100 h200; do
    "$A" check --config configs/$g.ini --baseline tests/baselines/$g.baseline >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check_eval "baseline: shipped $g passes (exit $rc)" \
        '[ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && grep -q "^ok: no cell moved" "$tmp/out"'
done

# (b) drift: a key that moves the L2's formulas
"$A" check --config configs/h100.ini --baseline $H -p l2.slice_count=48 --show 3 >"$tmp/out" 2>"$tmp/err"
rc=$?
check_eval "baseline: l2.slice_count=48 drifts (exit $rc, want 1)" '[ $rc -eq 1 ] && [ ! -s "$tmp/err" ]'
check_eval "baseline: drift names the config key" 'grep -q "^  gpu l2.slice_count: 100 -> 48$" "$tmp/out"'
check_eval "baseline: drift counts the moved cells" 'grep -Eq "^gpu_us: [1-9][0-9]* of 725900 cells moved past 0.5%" "$tmp/out"'
check_eval "baseline: drift names the largest moves in full" \
    'grep -A3 "^largest moves (3 of" "$tmp/out" | grep -Eq "^ +\+[0-9.]+%  gpu_us  histogram-shared n=[0-9]+ wg=[0-9]+ smem_per_wg=[0-9]+ bins=[0-9]+: [0-9.]+ -> [0-9.]+$"'
check_eval "baseline: drift counts the rest" 'grep -Eq "^  and [0-9]+ more$" "$tmp/out"'
check_eval "baseline: drift summarises per pattern" 'grep -Eq "^  histogram +gpu_us +[1-9][0-9]* +469200 " "$tmp/out"'
check_eval "baseline: drift lists flipped decisions" \
    'grep -Eq "^decisions flipped: [1-9][0-9]* \([0-9]+ gpu->cpu" "$tmp/out" && grep -Eq "^  histogram-u8-cas n=.*: gpu -> cpu \(gpu_us " "$tmp/out"'
check_eval "baseline: drift says how to rewrite" 'grep -q "write-baseline tests/baselines/h100.baseline" "$tmp/out"'
# l2.slice_count=96 moves cells by less than the recorded 0.5%: the override
# alone is drift, and a tighter --tolerance names the cells
"$A" check --config configs/h100.ini --baseline $H -p l2.slice_count=96 >"$tmp/out" 2>&1
rc=$?
check_eval "baseline: l2.slice_count=96 is drift by its config key (exit $rc)" \
    '[ $rc -eq 1 ] && grep -q "^  gpu l2.slice_count: 100 -> 96$" "$tmp/out" && grep -q "^gpu_us: 0 of 725900 cells moved past 0.5% ([1-9]" "$tmp/out"'
"$A" check --config configs/h100.ini --baseline $H -p l2.slice_count=96 --tolerance gpu_us=0% >"$tmp/out" 2>&1
rc=$?
check_eval "baseline: --tolerance gpu_us=0% names the cells l2.slice_count=96 moved (exit $rc)" \
    '[ $rc -eq 1 ] && grep -Eq "^gpu_us: [1-9][0-9]* of 725900 cells moved past 0%" "$tmp/out" && grep -q "^largest moves (20 of" "$tmp/out"'
# an edited config file is drift too: the shipped config with one value
# changed (through its include, so the calibration overlay still applies)
printf '[]\ninclude = %s/configs/h100.ini\n[l2]\nslice_count = 64\n' "$PWD" >"$tmp/edited.ini"
"$A" check --config "$tmp/edited.ini" --baseline $H >"$tmp/out" 2>&1
rc=$?
check_eval "baseline: an edited config value is drift (exit $rc)" \
    '[ $rc -eq 1 ] && grep -q "^  gpu l2.slice_count: 100 -> 64$" "$tmp/out" && grep -q "^largest moves" "$tmp/out"'

# (c) usage errors: one line, exit 2
expect "baseline: another GPU's baseline" 2 "is a baseline for GPU 'NVIDIA H100 80GB HBM3', not 'NVIDIA H200'" \
    "$A" check --config configs/h200.ini --baseline $H
expect "baseline: missing file" 2 "nope.baseline: cannot open baseline" \
    "$A" check --config configs/h100.ini --baseline "$tmp/nope.baseline"
expect "baseline: an export's JSON table" 2 "h100.json: not an atomsim cost baseline" \
    "$A" check --config configs/h100.ini --baseline tables/h100.json
sed 's/^schema: .*/schema: atomsim-cost-table/' $H >"$tmp/schema.baseline"
expect "baseline: another schema" 2 "schema 'atomsim-cost-table', not atomsim-cost-baseline" \
    "$A" check --config configs/h100.ini --baseline "$tmp/schema.baseline"
sed 's/^schema_version: .*/schema_version: 2/' $H >"$tmp/v2.baseline"
expect "baseline: another schema version" 2 "schema_version 2; this atomsim reads atomsim-cost-baseline version 1" \
    "$A" check --config configs/h100.ini --baseline "$tmp/v2.baseline"
# the first cell line, cut in its middle (a byte count would land on a line's
# end whenever the config section grows by a key)
awk '/^[^#].* \| / { print substr($0, 1, int(length($0) / 2)); exit } { print }' $H | head -c -1 >"$tmp/cut.baseline"
expect "baseline: a line cut short" 2 "cut.baseline:[0-9]+: " \
    "$A" check --config configs/h100.ini --baseline "$tmp/cut.baseline"
expect "baseline: both modes" 2 "give one of --baseline FILE and --write-baseline FILE" \
    "$A" check --config configs/h100.ini --baseline $H --write-baseline "$tmp/x"
expect "baseline: a tolerance without %" 2 "tolerance 'gpu_us=1'" \
    "$A" check --config configs/h100.ini --baseline $H --tolerance gpu_us=1

# (d) --write-baseline: deterministic, and what it writes passes
"$A" check --config configs/h100.ini --write-baseline "$tmp/a.baseline" && \
"$A" check --config configs/h100.ini --write-baseline "$tmp/b.baseline"
check "baseline: --write-baseline twice, byte-identical" cmp -s "$tmp/a.baseline" "$tmp/b.baseline"
"$A" check --config configs/h100.ini --baseline "$tmp/a.baseline" >/dev/null
check_eval "baseline: a written baseline passes" '[ $? -eq 0 ]'
# a baseline made with -p names it in the command it records, and the drift
# hint names it too: the recorded command remakes the same file
"$A" check --config configs/h100.ini -p l2.slice_count=60 --write-baseline "$tmp/p.baseline"
check "baseline: -p is in the recorded command" grep -qx '#   atomsim check --config configs/h100.ini -p l2.slice_count=60 --write-baseline FILE' "$tmp/p.baseline"
"$A" check --config configs/h100.ini -p l2.slice_count=60 --baseline $H >"$tmp/out"
check "baseline: -p is in the drift hint" grep -q 'atomsim check --config configs/h100.ini -p l2.slice_count=60 --write-baseline' "$tmp/out"

finish baseline_check
