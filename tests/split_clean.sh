#!/usr/bin/env bash
# split_clean.sh - the calibration split's test rows are held out: no test
# row of validate/data/h100.csv or h200.csv (validate/splits/h100.split)
# has its configuration measured again in a file that shaped a mechanism
# (every probe in validate/data/MANIFEST.csv, and the raw runs of plans
# other than the contract's); a row that is must be marked `spent` in the
# split.  And every spent row is one that a
# probe did measure (a spent line must not hide clean test rows).  Rows are
# listed with `atomsim validate --rows test|spent --format csv` (the model
# engine: seconds).  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

for g in h100 h200; do
    for side in test spent; do
        "$A" validate --config "configs/$g.ini" --data "validate/data/$g.csv" --engine model \
            --split validate/splits/h100.split --rows "$side" --format csv >"$tmp/$g-$side.csv" || exit 1
    done
done
python3 - "$tmp" >"$tmp/out" <<'PY'
import csv, sys
tmp = sys.argv[1]
def rows(path):
    with open(path) as f:
        return [r for r in csv.DictReader(l for l in f if not l.startswith('#'))]
def key(r):
    return (r['pattern'], int(float(r['n'])), int(float(r['wg'])), float(r['selectivity']), int(float(r['bins'])),
            float(r['hot']), int(float(r['addresses'])), int(float(r.get('smem_per_wg') or 0)))
# The files that shaped mechanisms, from the manifest: every probe, and the
# raw runs of a plan other than the contract's (its runs and repeats) and
# the smoke plan.  Every row of every one must parse: a file or a row this
# reader skipped would hide a test row it holds.
contract = {'validate/plans/h100.plan', 'validate/plans/h100-repeat.plan', 'validate/plans/smoke.plan'}
files = []
for m in rows('validate/data/MANIFEST.csv'):
    if m['role'] == 'probe' or (m['role'] == 'raw' and m['validate_reads'] == 'yes' and m['plan'] not in contract):
        files.append(m['file'])
probed, bad = {}, []
for name in files:
    try:
        for r in rows('validate/data/' + name):
            probed.setdefault(key(r), name)
    except Exception as e:
        bad.append(f'{name}: {type(e).__name__} {e}')
print(f'probe files {len(files)} unreadable {len(bad)}')
for b in bad[:5]:
    print('  ' + b)
for g in ('h100', 'h200'):
    test = [key(r) for r in rows(f'{tmp}/{g}-test.csv')]
    spent = [key(r) for r in rows(f'{tmp}/{g}-spent.csv')]
    dirty = [(k, probed[k]) for k in test if k in probed]
    clean = [k for k in spent if k not in probed]
    print(f'{g} test {len(test)} dirty {len(dirty)} spent {len(spent)} unprobed {len(clean)}')
    for k, f in dirty[:5]:
        print(f'  test row {k} is measured again in {f}')
    for k in clean[:5]:
        print(f'  spent row {k} is in no probe file')
PY
cat "$tmp/out"
check_eval "the probe files are found and every row of each reads" "grep -Eq '^probe files [1-9][0-9]* unreadable 0$' $tmp/out"
for g in h100 h200; do
    check_eval "$g: test rows exist" "grep -Eq '^$g test [1-9][0-9]* ' $tmp/out"
    check_eval "$g: no test row is measured again in a probe file" "grep -q '^$g test [0-9]* dirty 0 ' $tmp/out"
    check_eval "$g: every spent row was measured again in a probe file" "grep -q '^$g .* unprobed 0$' $tmp/out"
done
finish split_clean
