#!/usr/bin/env bash
# cpu_config_median.sh - validate/cpubench/median_ini.sh, which makes one
# configs/cpu-*.ini from several runs: each measured figure is the median
# of the runs (with the first run's decimals and comments), the lines
# without a figure are the first run's, a key missing from a run or a
# single run is refused (exit non-zero, a line on stderr, nothing on stdout),
# and the result loads as a CPU config.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
M=validate/cpubench/median_ini.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

# three runs of the shipped config with key_ns, update_dram_ns and a fixed
# cost moved as the GPU host moves them between runs
base=configs/cpu-gpuhost-16core.ini
sed -E 's/^key_ns = [0-9.]+/key_ns = 1.2910/; s/^update_dram_ns = [0-9.]+/update_dram_ns = 14.0500/; s/^scan_fixed_us = [0-9.]+/scan_fixed_us = 9.000/' "$base" >"$tmp/r1.ini"
sed -E 's/^key_ns = [0-9.]+/key_ns = 0.4550/; s/^update_dram_ns = [0-9.]+/update_dram_ns = 8.3000/; s/^scan_fixed_us = [0-9.]+/scan_fixed_us = 2.000/' "$base" >"$tmp/r2.ini"
sed -E 's/^key_ns = [0-9.]+/key_ns = 0.6510/; s/^update_dram_ns = [0-9.]+/update_dram_ns = 9.8000/; s/^scan_fixed_us = [0-9.]+/scan_fixed_us = 3.000/' "$base" >"$tmp/r3.ini"
rc=0
bash "$M" "$tmp/r1.ini" "$tmp/r2.ini" "$tmp/r3.ini" >"$tmp/m.ini" 2>"$tmp/err" || rc=$?
check "three runs: exit 0" test "$rc" -eq 0
check "key_ns is the median run's, first run's decimals" grep -q '^key_ns = 0.6510 ; ' "$tmp/m.ini"
check "update_dram_ns is the median" grep -q '^update_dram_ns = 9.8000 ; ' "$tmp/m.ini"
check "a [fixed] figure is the median" grep -q '^scan_fixed_us = 3.000 ; ' "$tmp/m.ini"
check "the header says how it was made" grep -q '^; every figure below: the median over 3 separate runs' "$tmp/m.ini"
check "figures every run agrees on are unchanged" grep -q "^$(grep '^workers = ' "$base")" "$tmp/m.ini"
check "sections and names are the first run's" test "$(grep -c '^\[' "$tmp/m.ini")" -eq "$(grep -c '^\[' "$base")"
# two runs: the mean of the middle pair
bash "$M" "$tmp/r1.ini" "$tmp/r2.ini" >"$tmp/m2.ini" 2>/dev/null
check "two runs: the middle pair's mean" grep -q '^key_ns = 0.8730 ; ' "$tmp/m2.ini"

"$A" export --config configs/h100.ini --cpu "$tmp/m.ini" --only counter --format csv --output "$tmp/t.csv" 2>"$tmp/err"
check "the median config loads as a CPU tier" test -s "$tmp/t.csv"

# refusals: nothing on stdout, one line on stderr, non-zero exit
refuse() { local name=$1; shift; check_refuses "$name" bash "$M" "$@"; }
grep -v '^key_ns' "$tmp/r2.ini" >"$tmp/nokey.ini"
refuse "a key missing from a run" "$tmp/r1.ini" "$tmp/nokey.ini"
refuse "a single run" "$tmp/r1.ini"
finish cpu_config_median
