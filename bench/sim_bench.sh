#!/usr/bin/env bash
# sim_bench.sh - the simulator's speed and memory on one core (`make bench`):
# a 2^24-element histogram with 256 bins on configs/h200.ini (median of 3
# runs), the warp instructions and L2 ops it simulates per second, its peak
# resident memory, and how time grows with n (2^20, 2^22, 2^24).  Prints
# the figures and whether the targets hold (<= 1 s, <= 512 MiB, >= 5e6
# warp instructions/s); exits 1 when one is missed.
set -u
cd "$(dirname "$0")/.."
A=${1:-build/atomsim}
CFG=${CONFIG:-configs/h200.ini}
[ -x "$A" ] || { echo "sim_bench: $A is not built" >&2; exit 1; }
pin=""
command -v taskset >/dev/null && pin="taskset -c 0"

# one run: prints "wall_s maxrss_kib warp_instructions l2_atomic_ops"
measure() {
    python3 - "$@" <<'PY'
import resource, subprocess, sys, time
cmd = sys.argv[1:]
t0 = time.perf_counter()
out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines()
wall = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
head, row = out[0].split(","), out[1].split(",")
get = lambda k: float(row[head.index(k)])
print(f"{wall:.3f} {rss} {get('warp_instructions'):.0f} {get('l2_atomic_ops'):.0f}")
PY
}

run() { measure $pin "$A" run --config "$CFG" --pattern histogram --bins 256 --n "$1" --format csv; }

status=0
echo "simulator speed on one core ($CFG, histogram, 256 bins)"
for n in 1048576 4194304; do
    read -r wall rss wi ops <<<"$(run $n)"
    printf '  n=%-9s %7.3f s\n' "$n" "$wall"
done
walls=()
for _ in 1 2 3; do
    read -r wall rss wi ops <<<"$(run 16777216)"
    walls+=("$wall")
done
med=$(printf '%s\n' "${walls[@]}" | sort -n | sed -n 2p)
printf '  n=%-9s %7.3f s (median of %s)\n' 16777216 "$med" "${walls[*]}"
awk -v w="$med" -v rss="$rss" -v wi="$wi" -v ops="$ops" 'BEGIN {
    printf "  peak memory          %8.1f MiB   (target <= 512)\n", rss / 1024
    printf "  warp instructions/s  %8.3g       (target >= 5e6)\n", wi / w
    printf "  L2 atomic ops/s      %8.3g\n", ops / w
    printf "  wall                 %8.3f s     (target <= 1)\n", w
    exit !(w <= 1 && rss / 1024 <= 512 && wi / w >= 5e6)
}' || status=1
[ $status = 0 ] && echo "  targets: met" || echo "  targets: MISSED"
exit $status
