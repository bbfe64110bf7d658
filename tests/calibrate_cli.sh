#!/usr/bin/env bash
# calibrate_cli.sh - `atomsim calibrate` and `validate --split`: bad input
# (missing data file, unknown or non-calibratable key in --keys, a key no
# stage fits, a bad split file, --rows without --split) fails with one line
# on stderr, nothing on stdout, exit 2; a small real calibration (three
# store rows, one key) writes an overlay that holds only that key, reads
# back through `include`, and whose fit does not raise the stage's error.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

# expect NAME STATUS REGEX COMMAND...: exit status, one stderr line matching
# REGEX, empty stdout.
expect() {
    local name=$1 want=$2 re=$3 got=0
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || got=$?
    local lines
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -Eq -- "$re" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name: exit $got (want $want), $lines stderr lines (want 1 matching /$re/), $(wc -c <"$tmp/out") bytes on stdout"
        sed 's/^/       stderr: /' "$tmp/err" | head -5
    fi
}

C="--config configs/h100.ini"
H=validate/data/h100.csv
cal() { "$A" calibrate $C --out "$tmp/o.ini" "$@"; }
expect "missing data file" 2 "$tmp/none\.csv" cal --data "$tmp/none.csv"
expect "missing --data" 2 "--data" "$A" calibrate $C --out "$tmp/o.ini"
expect "missing --out" 2 "--out" "$A" calibrate $C --data $H
expect "unknown key in --keys" 2 "unknown key 'l2\.nope'" cal --data $H --keys l2.same_address_cycles,l2.nope
expect "non-calibratable key" 2 "gpu\.sm_count.*not calibratable" cal --data $H --keys gpu.sm_count
expect "an estimate key (no stage fits it)" 2 "l2\.queue_depth_requests.*not calibratable" cal --data $H --keys l2.queue_depth_requests
expect "malformed key" 2 "not section\.key" cal --data $H --keys sameaddress
printf 'test histogram colour=1\n' >"$tmp/bad.split"
expect "bad split file (file:line)" 2 "bad\.split:1:" cal --data $H --split "$tmp/bad.split"
expect "missing split file" 2 "$tmp/none\.split" cal --data $H --split "$tmp/none.split"
# the flag as it was written, with the one -j rule's bounds (util/pool.h)
expect "bad -j" 2 "-j '0' is not an integer in \\[1, 1024\\]" cal --data $H -j 0
expect "bad --jobs" 2 "--jobs '2000' is not an integer" cal --data $H --jobs 2000
expect "validate --rows without --split" 2 "--split" "$A" validate $C --data $H --rows test
expect "validate bad --rows" 2 "--rows 'some'" "$A" validate $C --data $H --split validate/splits/h100.split --rows some
{ grep '^#' $H; echo '# select_unit: warp (one selection draw decides this unit; a probe)'
  grep -v '^#' $H | head -3; } >"$tmp/probe.csv"
expect "validate refuses a --select-unit probe" 2 "probe\.csv:[0-9]+: a vkbench probe \(select_unit warp\)" \
    "$A" validate $C --data "$tmp/probe.csv"
{ grep '^#' $H; echo '# cas_first: guess (cas-append guesses its first value; a probe)'
  grep -v '^#' $H | head -3; } >"$tmp/probe2.csv"
expect "validate refuses a --cas-first probe" 2 "probe2\.csv:[0-9]+: a vkbench probe \(cas_first guess\)" \
    "$A" validate $C --data "$tmp/probe2.csv"
expect "validate refuses the --flush all probe" 2 "h100-shared-flush-all\.csv:[0-9]+: a vkbench probe \(flush all\)" \
    "$A" validate $C --data validate/data/probes/h100-shared-flush-all.csv
P=validate/data/probes/h100-select-unit-thread.csv
expect "--probe without NAME=" 2 "--probe 'split_exit' is not NAME=FILE" cal --data $H --probe split_exit
expect "--probe of no stage" 2 "--probe nope: no stage fits on a probe of that name" cal --data $H --probe nope=$P
expect "--probe given twice" 2 "--probe split_exit is given twice" cal --data $H --probe split_exit=$P --probe split_exit=$P
expect "--probe of a missing file" 2 "--probe split_exit: .*none\.csv" cal --data $H --probe split_exit="$tmp/none.csv"
expect "a probe of another GPU" 2 "--probe split_exit: .*h200-select-unit-thread\.csv was measured on NVIDIA H200" \
    cal --data $H --probe split_exit=validate/data/probes/h200-select-unit-thread.csv
expect "a probe stage's key without its probe" 2 "give --probe split_exit=FILE, or --keys without launch\.split_exit_cycles" \
    cal --data $H --keys launch.split_exit_cycles
expect "validate bad --tie-pct" 2 "--tie-pct '60'" "$A" validate $C --data $H --tie-pct 60
expect "validate bad split" 2 "bad\.split:1:" "$A" validate $C --data $H --split "$tmp/bad.split" --rows test

# a small real calibration: three small store rows fit, one held out
{ grep '^#' $H; grep -v '^#' $H | head -1
  grep -E '^store,(4096|16384|65536|262144),256,1,' $H; } >"$tmp/small.csv"
printf 'test store n=262144\n' >"$tmp/small.split"
if "$A" calibrate $C --data "$tmp/small.csv" --split "$tmp/small.split" --keys launch.kernel_overhead_cycles \
    --max-evals 6 -j 2 --out "$tmp/o.ini" >"$tmp/log" 2>"$tmp/err"; then ok "small calibration runs"
else bad "small calibration runs: $(head -3 "$tmp/err")"; fi
keys=$(grep -Ec '^[a-z_]+ *=' "$tmp/o.ini" 2>/dev/null)
if [ "$keys" = 1 ] && grep -q '^kernel_overhead_cycles = ' "$tmp/o.ini" && grep -q '^\[launch\]' "$tmp/o.ini"; then
    ok "overlay holds only the fitted key"
else bad "overlay holds only the fitted key ($keys keys)"; sed 's/^/       /' "$tmp/o.ini" | head -40; fi
if grep -q '3 fit rows, 1 test rows, 0 spent' "$tmp/o.ini" && grep -q '^; split: ' "$tmp/o.ini" && grep -q '^;   store ' "$tmp/o.ini"; then
    ok "overlay header: split and residuals"
else bad "overlay header: split and residuals"; fi
v=$(sed -n 's/^kernel_overhead_cycles = //p' "$tmp/o.ini")
printf 'include = %s/configs/h100.ini\ninclude = %s\n' "$PWD" "$tmp/o.ini" >"$tmp/both.ini"
got=$("$A" config --config "$tmp/both.ini" --dump | sed -n 's/^kernel_overhead_cycles = //p')
if [ -n "$v" ] && [ "$got" = "$v" ]; then ok "overlay reads back through include ($v)"
else bad "overlay reads back through include ('$got' vs '$v')"; fi
if awk '/^stage launch:.*objective/ { split($0, a, "objective "); split(a[2], b, " "); exit !(b[3] + 0 <= b[1] + 0) }' "$tmp/log"; then
    ok "the fit does not raise its objective"
else bad "the fit does not raise its objective"; grep '^stage' "$tmp/log"; fi
n=$("$A" validate --config "$tmp/both.ini" --data "$tmp/small.csv" --split "$tmp/small.split" --rows test --format csv -j 1 | tail -n +2 | wc -l)
if [ "$n" = 1 ]; then ok "validate --rows test keeps the held-out row"; else bad "validate --rows test: $n rows"; fi
n=$("$A" validate --config "$tmp/both.ini" --data "$tmp/small.csv" --split "$tmp/small.split" --rows fit --format csv -j 1 | tail -n +2 | wc -l)
if [ "$n" = 3 ]; then ok "validate --rows fit keeps the fit rows"; else bad "validate --rows fit: $n rows"; fi

# a calibration of every key without a probe leaves its stages out and says so
if "$A" calibrate $C --data "$tmp/small.csv" --split "$tmp/small.split" --max-evals 2 -j 2 --out "$tmp/all.ini" \
    >"$tmp/log" 2>"$tmp/err"; then ok "every key, no probe: runs"
else bad "every key, no probe: runs: $(head -3 "$tmp/err")"; fi
check_eval "... and says which stages it left out" "grep -q '^not fitted, their probes not given (--probe): retire, split_exit, split_window, split_share, link_queue;' $tmp/log"
check_eval "... in the overlay's header too, with none of their keys" \
    "grep -q '^; not fitted: retire, split_exit, split_window, split_share, link_queue ' $tmp/all.ini && ! grep -q '^split_exit' $tmp/all.ini && ! grep -q '^wg_retire' $tmp/all.ini && ! grep -q '^partition_link_queue' $tmp/all.ini"
# a probe stage fits on its probe's rows, not the dataset's, and the
# overlay names the probe: two bitmask rows of the split-exit probe
{ grep '^#' $P; grep -v '^#' $P | head -1
  grep -E '^bitmask,16777216,256,(0\.1|0\.275),[^,]*,[^,]*,[^,]*,0,' $P; } >"$tmp/probe-se.csv"
if "$A" calibrate $C --data "$tmp/small.csv" --split "$tmp/small.split" --keys launch.split_exit_cycles \
    --probe split_exit="$tmp/probe-se.csv" --max-evals 3 -j 2 --out "$tmp/p.ini" >"$tmp/log" 2>"$tmp/err"; then
    ok "a probe stage runs"
else bad "a probe stage runs: $(head -3 "$tmp/err")"; fi
check_eval "the probe stage fits the probe's 2 rows" "grep -q '^stage split_exit: 2 rows' $tmp/log"
check_eval "the overlay names the probe" "grep -q '^; probe:    split_exit = $tmp/probe-se.csv (NVIDIA H100' $tmp/p.ini"
check_eval "the overlay sets the probe stage's key" "grep -q '^split_exit_cycles = ' $tmp/p.ini"

# from the key switched off (0) the stage finds the hump's cost on its own:
# six rows across the hump, a probe longer than the dataset, whose first
# row is held out (the stage must read the probe's rows, not the dataset's
# fit mask)
{ grep '^#' $P; grep -v '^#' $P | head -1
  grep -E '^bitmask,16777216,256,(0\.01|0\.05|0\.1|0\.275|0\.476|1),[^,]*,[^,]*,[^,]*,0,' $P; } >"$tmp/probe-6.csv"
printf 'test store n=4096\n' >"$tmp/first.split"
if "$A" calibrate $C -p launch.split_exit_cycles=0 --data "$tmp/small.csv" --split "$tmp/first.split" \
    --keys launch.split_exit_cycles --probe split_exit="$tmp/probe-6.csv" --max-evals 10 -j 2 --out "$tmp/z.ini" \
    >"$tmp/log" 2>"$tmp/err"; then ok "from 0: the probe stage runs"
else bad "from 0: the probe stage runs: $(head -3 "$tmp/err")"; fi
check_eval "from 0: all 6 probe rows fit, whatever the dataset's split" "grep -q '^stage split_exit: 6 rows' $tmp/log"
v=$(sed -n 's/^split_exit_cycles = //p' "$tmp/z.ini")
check_eval "from 0: it finds the hump's cost ($v; the hand fit 0.106)" \
    "awk -v v='$v' 'BEGIN { exit !(v > 0.08 && v < 0.14) }'"

finish
