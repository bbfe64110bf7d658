#!/usr/bin/env bash
# default_study.sh - what `make run` shows a newcomer: a histogram's time as
# its bin count grows, beside a counter's time as its selectivity grows.
set -eu
atomsim=${1:-build/atomsim}; cfg=${2:-configs/h100.ini}
printf 'atomsim on %s, n = 2^20, wg = 256 (simulated)\n\n' "$cfg"
printf '%-10s %12s    %-12s %12s\n' "bins" "histogram_us" "selectivity" "counter_us"
bins=(1 4 16 64 256 1024 4096 65536)
sels=(0 0.001 0.01 0.05 0.1 0.25 0.5 1)
for i in "${!bins[@]}"; do
  h=$("$atomsim" run --config "$cfg" --pattern histogram --bins "${bins[$i]}" --format csv | awk -F, 'NR==2{print $11}')
  c=$("$atomsim" run --config "$cfg" --pattern counter --selectivity "${sels[$i]}" --format csv | awk -F, 'NR==2{print $11}')
  printf '%-10s %12.2f    %-12s %12.2f\n' "${bins[$i]}" "$h" "${sels[$i]}" "$c"
done
