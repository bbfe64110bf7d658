#!/usr/bin/env bash
# run_truth_host.sh - validate/run_truth.sh's CPU side checks its host: a
# pool that hands a task over slower than HOST_MAX_FIXED_US microseconds
# (fixed.plan's one-phase patterns at n = 1024, before and after the plan)
# fails the run with exit 3 and a line saying its CPU rows must not be
# scored; a healthy host times the plan and exits 0.  The limit is forced
# to 0 and to a huge value here, so the test does not depend on this
# machine's speed.  CPUBENCH names the binary (default build/cpubench).
set -u
cd "$(dirname "$0")/.."
export CPUBENCH=${CPUBENCH:-build/cpubench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

if [ ! -x "$CPUBENCH" ]; then
    echo "FAIL $CPUBENCH is not built (make build/cpubench)"
    exit 1
fi
printf '%s\n' '--pattern counter --n 4096 --selectivity 0.5' '--pattern histogram --n 4096 --bins 64' >"$tmp/p.plan"

HOST_MAX_FIXED_US=1e9 bash validate/run_truth.sh cpu "$tmp/p.plan" "$tmp/ok" >"$tmp/ok.out" 2>&1
rc=$?
check_eval "a healthy host: exit 0, both rows timed, two host checks passed" \
    "[ $rc -eq 0 ] && [ \$(grep -vc '^#' $tmp/ok/cpu.csv) -eq 3 ] && [ \$(grep -c 'host check .*takes [0-9.]* us\$' $tmp/ok.out) -eq 2 ]"
HOST_MAX_FIXED_US=0 bash validate/run_truth.sh cpu "$tmp/p.plan" "$tmp/bad" >"$tmp/bad.out" 2>&1
rc=$?
check_eval "a host over the limit: exit 3, and it says the CPU rows must not be scored" \
    "[ $rc -eq 3 ] && grep -q 'must not be scored' $tmp/bad.out"
finish "run_truth host check"
