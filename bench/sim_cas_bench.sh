#!/usr/bin/env bash
# sim_cas_bench.sh - the compare-and-swap patterns at n = 2^24 (`make bench`):
# each at its default parameters and at a few shapes, one run each on one
# core of configs/h100.ini with the default event budget.  Prints wall
# seconds, events, the share of compare-and-swaps the fast-forward skipped
# (sim/fastfwd.c) and whether the run finished; exits 1 when one does not
# finish within the 60 s bound (issue: every configuration finishes).
set -u
cd "$(dirname "$0")/.."
A=${1:-build/atomsim}
CFG=${CONFIG:-configs/h100.ini}
LIMIT_S=${LIMIT_S:-60}
[ -x "$A" ] || { echo "sim_cas_bench: $A is not built" >&2; exit 1; }
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"

cases=(
    "histogram-u8-cas"
    "histogram-u16-cas"
    "cas-append"
    "cas-append --selectivity 0.01"
    "histogram-u8-cas --bins 65536"
    "histogram-u16-cas --wg 64 --bins 1024 --smem-per-wg 45056"
)
status=0
echo "CAS patterns at n=2^24 on one core ($CFG, default budget; bound $LIMIT_S s each)"
err=$(mktemp)
trap 'rm -f "$err"' EXIT
for c in "${cases[@]}"; do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    row=$($pin "$A" run --config "$CFG" --n 16777216 --format csv --pattern $c 2>"$err" | tail -1)
    t1=$(date +%s.%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    skipped=$(sed -n 's/.*note: \([0-9.]*\)% of this run.*/\1%/p' "$err")
    events=$(printf '%s\n' "$row" | awk -F, '{ print $NF }')
    verdict=finished
    case $row in histogram* | cas*) ;; *) verdict="STOPPED: $(head -c 100 "$err")"; events=-; status=1 ;; esac
    awk -v w="$wall" -v l="$LIMIT_S" 'BEGIN { exit !(w > l) }' && { verdict="$verdict, OVER $LIMIT_S s"; status=1; }
    printf '  %-55s %6s s  %10s events  skipped %6s  %s\n' "$c" "$wall" "$events" "${skipped:-0%}" "$verdict"
done
[ $status = 0 ] && echo "  bound: met" || echo "  bound: MISSED"
exit $status
