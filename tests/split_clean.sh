#!/usr/bin/env bash
# split_clean.sh - the calibration split's test rows are held out: no test
# row of validate/data/h100.csv or h200.csv (validate/splits/h100.split)
# has its configuration measured again in a probe file
# (validate/data/probes/), since probes shaped mechanisms; a row that is
# must be marked `spent` in the split.  And every spent row is one that a
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
import csv, glob, sys
tmp = sys.argv[1]
def rows(path):
    with open(path) as f:
        return [r for r in csv.DictReader(l for l in f if not l.startswith('#'))]
def key(r):
    return (r['pattern'], int(float(r['n'])), int(float(r['wg'])), float(r['selectivity']), int(float(r['bins'])),
            float(r['hot']), int(float(r['addresses'])), int(float(r.get('smem_per_wg') or 0)))
probed = {}
for path in sorted(glob.glob('validate/data/probes/*.csv')):
    try:
        got = rows(path)
    except (UnicodeDecodeError, csv.Error):
        continue
    for r in got:
        try:
            probed.setdefault(key(r), path.split('/')[-1])
        except (KeyError, ValueError, TypeError):
            break  # not a dataset of configurations (a trace, a count file)
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
for g in h100 h200; do
    check_eval "$g: test rows exist" "grep -Eq '^$g test [1-9][0-9]* ' $tmp/out"
    check_eval "$g: no test row is measured again in a probe file" "grep -q '^$g test [0-9]* dirty 0 ' $tmp/out"
    check_eval "$g: every spent row was measured again in a probe file" "grep -q '^$g .* unprobed 0$' $tmp/out"
done
finish split_clean
