#!/usr/bin/env bash
# calibrate_reproduce.sh - reruns the H100 calibration on the stored data and
# split and checks that it reproduces the committed overlay: every key of
# configs/h100.calibrated.ini within TOL (relative, default 0.03) of the
# rerun's value, integer and named values exactly, and no key missing on
# either side.  It fails when the engine or the stages have moved far enough
# that the committed overlay no longer is what the calibration gives: then
# rerun `atomsim calibrate` (the command is in the overlay's header) and
# commit the new overlay.  About 10-20 minutes on 2 cores; not part of
# `make test` (see the Makefile's calibrate-check).
#   usage: tests/long/calibrate_reproduce.sh [ATOMSIM]   (env: JOBS, TOL)
set -u
cd "$(dirname "$0")/../.."
A=${1:-${ATOMSIM:-build/atomsim}}
JOBS=${JOBS:-2}
TOL=${TOL:-0.03}
REF=configs/h100.calibrated.ini
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ ! -x "$A" ] || [ ! -f "$REF" ]; then
    echo "FAIL need $A built and $REF committed"
    exit 1
fi
# Calibrate from the hand-written config: once configs/h100.ini reads the
# overlay (`[]` then `include = h100.calibrated.ini` at its end), a copy
# without those lines is the starting point the overlay was fitted from.
. tests/lib/overlay.sh
without_overlay h100 >"$tmp/h100.ini"
if grep -q '^[[:space:]]*include' "$tmp/h100.ini"; then
    echo "FAIL configs/h100.ini has includes this script does not know how to strip"
    exit 1
fi
# the probe datasets the committed overlay was fitted with, as its header
# names them ("; probe:    NAME = FILE (...)")
probes=()
while read -r name file; do
    probes+=(--probe "$name=$file")
done < <(sed -n 's/^; probe: *\([a-z_0-9]*\) = \([^ ]*\) .*/\1 \2/p' "$REF")
start=$(date +%s)
if ! "$A" calibrate --config "$tmp/h100.ini" --data validate/data/h100.csv --split validate/splits/h100.split \
    "${probes[@]}" -j "$JOBS" --out "$tmp/h100.calibrated.ini" >"$tmp/log" 2>&1; then
    echo "FAIL atomsim calibrate failed:"
    tail -5 "$tmp/log"
    exit 1
fi
echo "calibration rerun in $(( $(date +%s) - start )) s"
# section.key value, one a line
keys() { awk '/^\[/ { s = substr($0, 2, length($0) - 2) } /^[a-z_]+ *=/ { split($0, a, / *= */); print s "." a[1], a[2] }' "$1" | sort; }
keys "$REF" >"$tmp/ref"
keys "$tmp/h100.calibrated.ini" >"$tmp/new"
fail=0
join -a1 -a2 -e MISSING -o 0,1.2,2.2 "$tmp/ref" "$tmp/new" >"$tmp/both"
while read -r k ref new; do
    verdict=$(awk -v r="$ref" -v n="$new" -v t="$TOL" 'BEGIN {
        if (r == "MISSING" || n == "MISSING") { print "missing"; exit }
        if (r == n) { print "same"; exit }
        if (r ~ /^-?[0-9.eE+-]+$/ && n ~ /^-?[0-9.eE+-]+$/ && r !~ /^-?[0-9]+$/) {
            d = (n - r) / (r == 0 ? 1 : r); if (d < 0) d = -d
            print (d <= t ? "close" : "far"); exit }
        print "differs" }')
    case $verdict in
    same | close) echo "ok   $k: committed $ref, rerun $new" ;;
    *) echo "FAIL $k: committed $ref, rerun $new ($verdict, tolerance $TOL)"; fail=$((fail + 1)) ;;
    esac
done <"$tmp/both"
grep -A20 '^residuals' "$tmp/log" | sed 's/^/    /'
[ "$fail" -eq 0 ] && echo "calibration reproduces $REF" || echo "calibration does NOT reproduce $REF ($fail keys)"
[ "$fail" -eq 0 ]
