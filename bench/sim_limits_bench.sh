#!/usr/bin/env bash
# sim_limits_bench.sh - the slowest non-CAS runs at n = 2^24 (`make bench`):
# for each pattern the parameters that cost the simulator most (many bins,
# many lines, the largest shared arrays, small workgroups), one run each on
# one core of configs/h200.ini.  Prints wall seconds and events per case and
# whether every run stays within the 30 s bound; exits 1 when one does not.
# CAS patterns are in bench/sim_cas_bench.sh: their events grow with the
# contenders of each word, and their bound is the fast-forward's.
set -u
cd "$(dirname "$0")/.."
A=${1:-build/atomsim}
CFG=${CONFIG:-configs/h200.ini}
LIMIT_S=${LIMIT_S:-30}
[ -x "$A" ] || { echo "sim_limits_bench: $A is not built" >&2; exit 1; }
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"

cases=(
    "store"
    "counter"
    "counter-aggregated"
    "compaction --selectivity 0.5"
    "histogram --bins 256"
    "histogram --bins 4194304"
    "histogram-shared --bins 4096"
    "histogram-shared --bins 12288"
    "bitmask"
    "reduce --wg 1024"
    "distinct-lines --addresses 1048576"
    "store --wg 32"
)
status=0
echo "slowest runs at n=2^24 on one core ($CFG; bound $LIMIT_S s each)"
for c in "${cases[@]}"; do
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    row=$($pin "$A" run --config "$CFG" --n 16777216 --format csv --pattern $c 2>&1 | tail -1)
    t1=$(date +%s.%N)
    wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    events=$(printf '%s\n' "$row" | awk -F, '{ print $NF }')
    verdict=ok
    awk -v w="$wall" -v l="$LIMIT_S" 'BEGIN { exit !(w > l) }' && { verdict=OVER; status=1; }
    case $row in histogram* | store* | counter* | compaction* | bitmask* | reduce* | distinct*) ;; *) verdict="FAILED: $row"; status=1 ;; esac
    printf '  %-36s %6s s  %10s events  %s\n' "$c" "$wall" "$events" "$verdict"
done
[ $status = 0 ] && echo "  bound: met" || echo "  bound: MISSED"
exit $status
