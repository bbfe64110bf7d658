#!/usr/bin/env bash
# csv_loadable.sh - every CSV atomsim writes loads with a reader's default
# options: pandas.read_csv(f), R's read.csv(f), gnuplot with only `set
# datafile separator comma`.  So no '#' provenance line inside a CSV (it
# goes to export's FILE.meta.json sidecar or the JSON format), and every
# row has the header's field count.  pandas and R are not installed here:
# python3's csv module, which parses quoting the way they do, is the proxy.
# The measured datasets (vkbench, cpubench) and export's shard parts keep
# their '#' provenance block, which validate and export --merge read: they
# are inputs, and load with pandas' comment='#' (R: comment.char='#').
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi

# loadable NAME FILE: no '#' line, a header, at least one row, every row the
# header's width; the reason on one line when not
cat >"$tmp/load.py" <<'EOF'
import csv, sys
text = open(sys.argv[1], newline="").read()
for i, line in enumerate(text.splitlines(), 1):
    if line.startswith("#"):
        sys.exit("line %d starts with '#': %s" % (i, line[:60]))
rows = list(csv.reader(text.splitlines()))
if len(rows) < 2:
    sys.exit("%d lines: no header and row" % len(rows))
width = len(rows[0])
for i, r in enumerate(rows[1:], 2):
    if len(r) != width:
        sys.exit("row %d has %d fields, the header %d" % (i, len(r), width))
EOF
loadable() {
    local why
    if why=$(python3 "$tmp/load.py" "$2" 2>&1); then
        ok "$1 loads with default options"
    else
        bad "$1 does not load with default options: $why"
    fi
}

# out NAME COMMAND...: runs it, stdout to $tmp/NAME.csv, failing on an error
out() {
    local name=$1
    shift
    if "$@" >"$tmp/$name.csv" 2>"$tmp/err"; then
        loadable "$name" "$tmp/$name.csv"
    else
        bad "$name: $* failed: $(head -1 "$tmp/err")"
    fi
}

C="--config configs/h100.ini"
out run "$A" run $C --pattern histogram --n 2^12 --bins 64 --format csv
out sweep "$A" sweep $C --pattern counter,histogram --n 2^10,2^12 --engine model --no-progress --format csv
out sweep-labelled "$A" sweep $C --config configs/a100.ini --pattern counter --n 2^10 \
    --vary l2.slice_count=40,80 --engine model --no-progress --format csv
out sweep-shard "$A" sweep $C --pattern counter --n 2^10,2^12,2^14 --engine model --shard 2/2 --no-progress --format csv
cat >"$tmp/study.ini" <<'EOF'
[study]
version = 1
[grid]
pattern = counter,compaction
n = 2^10,2^12
engine = model
[outputs]
csv = s.csv
EOF
if "$A" study "$tmp/study.ini" --out-dir "$tmp/study" >/dev/null 2>"$tmp/err"; then
    loadable study "$tmp/study/s.csv"
else
    bad "study failed: $(head -1 "$tmp/err")"
fi
out export "$A" export $C --only counter,histogram-u16-cas --format csv
if "$A" export $C --only reduce --format csv --output "$tmp/export-file.csv" 2>"$tmp/err"; then
    loadable export-output "$tmp/export-file.csv"
    check "export --output FILE: the provenance in FILE.meta.json, which parses" \
        python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); assert m["version"] and m["gpu_config_hash"]' \
        "$tmp/export-file.csv.meta.json"
else
    bad "export --output failed: $(head -1 "$tmp/err")"
fi
out export-list "$A" export --engine sim $C --sim-max-n 2^12 --only counter --list
out validate "$A" validate $C --data tests/golden/mini.csv --engine model --format csv
out validate-summary "$A" validate $C --data tests/golden/mini.csv --engine model --format csv --summary
out dispatch "$A" dispatch --table tables/h100.json --pattern counter --n 2^22 --format csv
out dispatch-batch "$A" dispatch --table tables/h100.json --batch tests/golden/queries.csv
out plan "$A" plan --random --seed 7 --rows 12 --format csv
out check "$A" check $C --no-sim --quick --format csv
R="--table tables/h100.json --gpu-data validate/truth/routing-6-h100.csv --cpu-data validate/truth/routing-6-cpu-h100host-16core.csv"
out check-routing "$A" check --routing $R --format csv --rows-out "$tmp/routing-rows.csv"
loadable check-routing-rows-out "$tmp/routing-rows.csv"
if "$A" check --against sim $C --points 4 --only counter --max-events 1e6 -j 2 --rows-out "$tmp/mvs-rows.csv" \
    --format csv >"$tmp/mvs.csv" 2>"$tmp/err" || [ $? = 1 ]; then
    loadable check-against-sim "$tmp/mvs.csv"
    loadable check-against-sim-rows-out "$tmp/mvs-rows.csv"
else
    bad "check --against sim failed: $(head -1 "$tmp/err")"
fi
finish csv_loadable
