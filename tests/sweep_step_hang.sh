#!/usr/bin/env bash
# sweep_step_hang.sh - a range whose step does not move the value (0.5 +
# 1e-17 is 0.5 in a double) or moves it too little to finish (an integer
# axis stepped by 1e-12, a factor of 1.0000000001) is refused with one
# line and exit 2: these used to loop for ever, every step rounding to a
# value already listed.  Ranges that finish still expand.  ATOMSIM may
# name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
. tests/lib/expect_one_line.sh
sw=("$A" sweep --config configs/h100.ini --pattern counter --count)

expect "integer axis, +1e-12" 2 "n: range '1..2:\+1e-12' takes 1e\+12 steps" "${sw[@]}" --n '1..2:+1e-12'
expect "real axis, +1e-17" 2 "selectivity: step ':\+1e-17' does not move the value from 0.5" "${sw[@]}" --selectivity '0.5..0.6:+1e-17'
expect "factor 1.0000000001" 2 "n: range '1..2:x1.0000000001' takes .* steps" "${sw[@]}" --n '1..2:x1.0000000001'
expect "a million-value range refused at once (fuzzing: 5 s under the sanitizers)" 2 "bins: range '2\^10..2\^20:\+1' takes 1.05e\+06 steps \(at most 262144\)" "${sw[@]}" --bins '2^10..2^20'
expect "config key axis, +1e-300" 2 "does not move the value" "${sw[@]}" --vary 'l2.same_address_cycles=1..2:+1e-300'
expect "implicit step 1 at 1e17" 2 "step ':\+1' does not move the value" "${sw[@]}" --vary 'sim.max_events=1e17..2e17'
n=$(timeout -s KILL 20 "$A" sweep --config configs/h100.ini --pattern counter --n '1..2^30:x1.01' --count 2>&1)
check_eval "a fine geometric range still expands (1..2^30:x1.01: $n rows)" "[ '$n' = 1726 ]"
n=$(timeout -s KILL 20 "$A" sweep --config configs/h100.ini --pattern counter --selectivity '0..1:+0.1' --count 2>&1)
check_eval "0..1:+0.1 is 11 rows ($n)" "[ '$n' = 11 ]"
finish sweep_step_hang
