#!/usr/bin/env bash
# h200_calibration.sh - configs/h200.calibrated.ini (the H200's launch floor
# and dispatcher, docs/calibration.md) is what `atomsim calibrate` gives on
# the committed probe: the command in the overlay's header, rerun, writes
# the same keys and values.  Seconds (two stages on 14 store rows).
# It starts from the H100's overlay, so a new H100 calibration fails it
# until the H200's is refitted (the command in its header).
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
. tests/lib/overlay.sh
REF=configs/h200.calibrated.ini
keys=launch.kernel_overhead_cycles,launch.wg_dispatch_cycles,launch.dispatch_lead_cycles
check "the overlay's header names the probe it was fitted on" \
    grep -q '^; data: *validate/data/probes/h200-launch-floor.csv ' "$REF"
# from the values the overlay was fitted from: h200.ini without its own
# overlay (the H100's calibrated values), beside the files it includes
without_overlay h200 >"$tmp/h200.ini"
ln -s "$PWD/configs/h100.ini" "$PWD/configs/h100.calibrated.ini" "$tmp/"
rc=0
"$A" calibrate --config "$tmp/h200.ini" --data validate/data/probes/h200-launch-floor.csv \
    --out "$tmp/h200.calibrated.ini" --keys "$keys" -j 2 --no-progress >"$tmp/log" 2>&1 || rc=$?
check "the calibration reruns (exit 0)" test "$rc" -eq 0
values() { grep -E '^[a-z_]+ = ' "$1"; }
check "every fitted value is the committed one ($(values "$tmp/h200.calibrated.ini" | tr '\n' ' '))" \
    cmp -s <(values "$REF") <(values "$tmp/h200.calibrated.ini")
check "h200.ini reads its overlay last" sh -c "tail -1 configs/h200.ini | grep -q '^include = h200.calibrated.ini'"
"$A" config --config configs/h200.ini --dump >"$tmp/h200.dump" 2>&1
# all three keys: the floor alone could match h100.ini's own starting value
for k in kernel_overhead_cycles dispatch_lead_cycles wg_dispatch_cycles; do
    check "the H200's $k is the overlay's" grep -q "^$k = $(sed -n "s/^$k = //p" "$REF")\$" "$tmp/h200.dump"
done
finish h200_calibration
