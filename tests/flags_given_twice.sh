#!/usr/bin/env bash
# flags_given_twice.sh - a single-valued option given twice used to take
# the last value silently (`run --config h100.ini --config h200.ini` ran
# the H200): now every command refuses it with one line naming the option,
# exit 2, nothing on stdout, whether it is the command's own option, a
# common one (--config, --pattern, a pattern flag, --format), a flag
# without a value, or an abbreviation of the first.  The options that take
# several values (-p, sweep's --config and --vary, export's --residuals)
# still repeat.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
. tests/lib/expect_one_line.sh
H=configs/h100.ini
G=configs/h200.ini
twice() { # NAME FLAG ARGS...: the command fails naming FLAG
    local name=$1 flag=$2
    shift 2
    expect "$name" 2 "^atomsim [a-z]+: $flag is given twice \(it takes one value\)$" "$A" "$@"
}
twice "run --config twice" --config run --config $H --config $G --pattern counter --n 1024
twice "run --conf then --config" --config run --conf $H --config $G --pattern counter --n 1024
twice "run --pattern twice" --pattern run --config $H --pattern counter --pattern store
twice "run --n twice" --n run --config $H --pattern counter --n 1024 --n 2048
twice "run --format twice" --format run --config $H --pattern counter --format csv --format json
twice "run --engine twice" --engine run --config $H --pattern counter --engine sim --engine model
twice "config --format twice" --format config --format text --format markdown
twice "config --dump twice" --dump config --dump --dump
twice "validate -j twice" -j validate --config $H --data tests/golden/mini.csv -j 1 -j 2
twice "validate --only twice" --only validate --config $H --data tests/golden/mini.csv --only counter --only store
twice "sweep --n twice" --n sweep --config $H --pattern counter --n 1 --n 2 --count
twice "sweep --shard twice" --shard sweep --config $H --pattern counter --shard 1/2 --shard 2/2 --count
twice "study --out-dir twice" --out-dir study configs/studies/histogram-bins.ini --out-dir "$tmp/a" --out-dir "$tmp/b"
twice "export --output twice" --output export --config $H --output "$tmp/a.json" --output "$tmp/b.json"
twice "export --only twice" --only export --config $H --only counter --only store --output "$tmp/a.json"
twice "export --reuse-config twice" --reuse-config export --config $H --engine sim --reuse-config $H --reuse-config $G --count
twice "dispatch --table twice" --table dispatch --table tables/h100.json --table tables/h200.json --pattern counter
twice "dispatch --extrapolate twice" --extrapolate dispatch --table tables/h100.json --pattern counter --extrapolate --extrapolate
twice "check --data twice" --data check --config $H --data tests/golden/mini.csv --data tests/golden/mini.csv
twice "plan --seed twice" --seed plan --random --seed 1 --seed 2 --rows 3
twice "calibrate --out twice" --out calibrate --config $H --data tests/golden/mini.csv --out "$tmp/a.ini" --out "$tmp/b.ini"

# the options that take several values still do
out=$("$A" run --config $H --pattern counter --n 1024 -p gpu.name=a -p l2.slice_count=40 2>&1 | head -1)
check_eval "run -p twice still runs ($out)" "[ '${out%% (*}' = 'counter on a' ]"
n=$("$A" sweep --config $H --config $G --pattern counter --n 1024 --vary l2.slice_count=40,80 --vary gpu.sm_count=66,132 --count 2>&1)
check_eval "sweep --config and --vary twice still expand ($n rows)" "[ '$n' = 8 ]"
"$A" export --config $H --only counter --residuals tests/golden/mini.csv --residuals tests/golden/mini.csv \
    --output "$tmp/r.json" 2>"$tmp/err"
check_eval "export --residuals twice is still taken" "[ -s $tmp/r.json ] || { cat $tmp/err; false; }"
finish flags_given_twice
