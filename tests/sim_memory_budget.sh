#!/usr/bin/env bash
# sim_memory_budget.sh - the largest --n (2^30) used to simulate with 5.3 GB
# of memory and no word: the simulator now estimates a run's memory before
# allocating and fails a run estimated above sim.max_memory_mb (default
# 4096) with one line naming the budget and the estimate, exit 1 (a budget,
# as sim.max_events is), in run, sweep and export alike; raising the key
# lets a run through; the key enters no config hash.  ATOMSIM may name the
# binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
. tests/lib/expect_one_line.sh
H=configs/h100.ini
re='sim.max_memory_mb=4096 exceeded: this run needs an estimated 51[0-9][0-9] MB \(raise it with -p sim.max_memory_mb=...\)$'
expect "run --n 2^30 (store)" 1 "^atomsim run: memory budget $re" "$A" run --config $H --pattern store --n 2^30
expect "a lower budget, set with -p" 1 "^atomsim run: memory budget sim.max_memory_mb=50 exceeded: this run needs an estimated [0-9]+ MB" \
    "$A" run --config $H --pattern store --n 2^24 -p sim.max_memory_mb=50
rc=0
"$A" sweep --config $H --pattern store --n 2^30 --no-progress >"$tmp/out" 2>"$tmp/err" || rc=$?
check_eval "sweep: exit 1, one line naming the row and the budget" \
    "[ $rc -eq 1 ] && [ \$(wc -l <$tmp/err) -eq 1 ] && grep -q 'store n=1073741824 .*sim.max_memory_mb=4096 exceeded' $tmp/err"
expect "the key's bounds" 2 "sim.max_memory_mb" "$A" run --config $H --pattern store -p sim.max_memory_mb=0
out=$("$A" run --config $H --pattern store --n 2^24 -p sim.max_memory_mb=200 --format csv 2>&1 | tail -1)
check_eval "under the budget the run goes on ($out)" "[ \"\${out%%,*}\" = store ]"
h1=$("$A" config --config $H --dump | head -1)
h2=$("$A" config --config $H -p sim.max_memory_mb=100 --dump | head -1)
check_eval "the budget enters no config hash ($h1)" "[ '$h1' = '$h2' ]"
finish sim_memory_budget
