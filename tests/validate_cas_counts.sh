#!/usr/bin/env bash
# validate_cas_counts.sh - `atomsim validate` on a dataset that carries the
# GPU's own compare-and-swap counts (vkbench --count-cas):
# validate/data/probes/h100-cas-attempts.csv.  Where few lanes share a word
# (at most 8 over the whole run) the simulator's retries must match the GPU's
# within 7% (they do within 2-5%): that is the CAS loop's semantics (a
# failed lane retries with the value it got back), which a broken loop or
# merge rule would miss by far more.
# The contended rows stay out (1e6 events): the simulator takes 1.5-3x the
# GPU's attempts there, a known gap (docs/findings.md).  Also the column's error path,
# and the clock guard's evidence columns that vkbench adds after it.
set -u
A=${ATOMSIM:-build/atomsim}
D=validate/data/probes/h100-cas-attempts.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

"$A" validate --config configs/h100.ini --data $D --max-events 1e6 -j 2 --format csv >"$tmp/v.csv" 2>"$tmp/v.err"
check "validate reads the count column (exit 0)" test $? -eq 0
check "csv output has both count columns" grep -q ',status,measured_cas_attempts,predicted_cas_attempts$' "$tmp/v.csv"
# rows with at most 8 lanes a word that ran: simulated / counted
awk -F, 'NR > 1 && $15 == "ok" {
    per = $1 == "histogram-u8-cas" ? 4 : 2
    if ($2 * per / $5 <= 8) print $17 / $16 }' "$tmp/v.csv" >"$tmp/ratios"
check "at least 7 low-contention rows ran ($(wc -l <"$tmp/ratios"))" test "$(wc -l <"$tmp/ratios")" -ge 7
check "their simulated attempts are within 7% of the GPU's ($(tr '\n' ' ' <"$tmp/ratios"))" \
    awk '$1 < 0.93 || $1 > 1.07 { bad = 1 } END { exit bad }' "$tmp/ratios"
# contended rows that ran (4096 bins at 2^16) retry more than the uncontended
more=$(awk -F, 'NR > 1 && $15 == "ok" && $2 == 65536 && $5 == 4096 { print ($17 > 2 * $2) }' "$tmp/v.csv" | sort -u)
check "4096 bins at n = 2^16: more than two attempts a thread, simulated" test "$more" = 1

"$A" validate --config configs/h100.ini --data $D --max-events 3e5 -j 2 --worst 0 >"$tmp/v.txt" 2>&1
check "text output reports the count ratio" grep -q '^compare-and-swaps, simulated / counted on the GPU' "$tmp/v.txt"
check "text output has an overall ratio line" grep -Eq '^overall +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$tmp/v.txt"

# a plain dataset has no count section
"$A" validate --config configs/h100.ini --data validate/data/probes/h100-cas-control.csv --max-events 3e5 -j 2 --worst 0 >"$tmp/p.txt" 2>&1
check "a dataset without counts prints no count section" test "$(grep -c '^compare-and-swaps' "$tmp/p.txt")" -eq 0

# a count that is not a number: one line naming the file, line and field, exit 2
{ grep '^#' $D; grep -v '^#' $D | head -3 | sed '3s/,[0-9]*$/,abc/'; } >"$tmp/bad.csv"
"$A" validate --config configs/h100.ini --data "$tmp/bad.csv" >"$tmp/bad.out" 2>"$tmp/bad.err"
rc=$?
check "a malformed count exits 2" test $rc -eq 2
check "and says which line and why in one line" \
    test "$(cat "$tmp/bad.err")" = "atomsim validate: $tmp/bad.csv:$(($(grep -c '^#' $D) + 3)): cas_attempts 'abc' is not a count"

# the clock guard's columns (vkbench with the guard on): read after the count column or alone
P=validate/data/probes/h100-cas-control.csv
{ grep '^#' $P; grep -v '^#' $P | sed '1s/$/,clock_ratio_max,clock_rewarms/; 2,$s/$/,1.0123,0/'; } >"$tmp/clock.csv"
"$A" validate --config configs/h100.ini --data "$tmp/clock.csv" --engine model --format csv >"$tmp/clock.out" 2>&1
check "a dataset with the clock columns is read (exit 0)" test $? -eq 0
{ grep '^#' $D; grep -v '^#' $D | sed '1s/$/,clock_ratio_max,clock_rewarms/; 2,$s/$/,,2/'; } >"$tmp/both.csv"
"$A" validate --config configs/h100.ini --data "$tmp/both.csv" --engine model --format csv >"$tmp/both.out" 2>&1
check "counts and clock columns together are read, the counts kept" grep -q ',status,measured_cas_attempts,predicted_cas_attempts$' "$tmp/both.out"
{ grep '^#' $P; grep -v '^#' $P | head -3 | sed '1s/$/,clock_ratio_max,clock_rewarms/; 2,$s/$/,fast,0/'; } >"$tmp/badclock.csv"
"$A" validate --config configs/h100.ini --data "$tmp/badclock.csv" >"$tmp/bc.out" 2>"$tmp/bc.err"
check "a malformed clock ratio exits 2 naming the line" \
    test $? -eq 2 -a "$(cat "$tmp/bc.err")" = "atomsim validate: $tmp/badclock.csv:$(($(grep -c '^#' $P) + 2)): clock evidence 'fast,0' is not a ratio and a count"
{ grep '^#' $P; grep -v '^#' $P | head -3 | sed '1s/$/,clock_rewarms/'; } >"$tmp/badhead.csv"
"$A" validate --config configs/h100.ini --data "$tmp/badhead.csv" >/dev/null 2>&1
check "an unknown trailing column is refused (exit 2)" test $? -eq 2

finish
