#!/bin/bash
# run_truth.sh - on the GPU machine: measures a routing truth set, the same
# configurations timed by vkbench on the GPU and by cpubench on the CPU tier
# of the same host, each side with its data already resident
# (docs/accuracy.md, "Routing truth set"), or only the host's CPU-tier
# constants (the configs/cpu-*.ini that the cost tables use).
#
# usage: bash validate/run_truth.sh cpu-config OUTDIR NAME
#        bash validate/run_truth.sh truth PLAN OUTDIR [vkbench flags]
#   cpu-config: OUTDIR/NAME.ini, NAME.csv (raw timings), NAME.cpuinfo.txt
#   truth:      OUTDIR/<gpu>.csv (run_device.sh: dataset, log, clocks) and
#               OUTDIR/cpu.csv (cpubench --plan on every online CPU), cpu.log
# Needs build/vkbench, build/cpubench (static) and .gl/ (see DEVICE notes in
# validate/README.md).  Reads the GPU's clocks, never changes them.
set -u
mode=$1
shift
case "$mode" in
cpu-config)
    out=$1 name=$2
    mkdir -p "$out"
    lscpu >"$out/$name.cpuinfo.txt" 2>&1
    ./build/cpubench --csv "$out/$name.csv" --ini "$out/$name.ini" --name "$name" 2>"$out/$name.log"
    status=$?
    # the fixed costs: medians of whole tasks at n = 16 (fixed.plan)
    ./build/cpubench --plan validate/cpubench/fixed.plan >"$out/$name.fixed.csv" 2>>"$out/$name.log" || status=1
    awk -F, '
        /^#/ || $1 == "pattern" { next }
        $1 == "histogram" && $5 == 16384 { big = $10; next }
        $1 == "histogram" { one = $10 }
        { fam = ($1 ~ /^(compaction|cas-append)$/) ? "compact" : ($1 ~ /^(histogram|distinct-lines)/) ? "bins" : "scan"
          v[fam, ++k[fam]] = $10 }
        function median(f,   i, j, t, n) {
            n = k[f]
            for (i = 2; i <= n; i++) { t = v[f, i]; for (j = i - 1; j >= 1 && v[f, j] > t; j--) v[f, j + 1] = v[f, j]; v[f, j + 1] = t }
            return n % 2 ? v[f, (n + 1) / 2] : (v[f, n / 2] + v[f, n / 2 + 1]) / 2
        }
        END {
            print "\n[fixed]"
            print "; cpubench --plan validate/cpubench/fixed.plan on this host: the median of each family'"'"'s patterns at n = 16"
            printf "scan_fixed_us = %.3f ; store, counters, bitmask, reduce (measured)\n", median("scan")
            printf "compact_fixed_us = %.3f ; compaction, cas-append (measured)\n", median("compact")
            printf "bins_fixed_us = %.3f ; histograms and distinct-lines at 1 bin (measured)\n", median("bins")
            printf "bins_cached_ns_per_bin = %.4f ; (histogram at 16,384 bins - at 1) / 16,383 (measured)\n", (big - one) * 1000 / 16383
        }' "$out/$name.fixed.csv" >>"$out/$name.ini"
    echo "run_truth: cpu-config $name: exit $status, $(nproc) CPUs, $(grep -m1 'Model name' "$out/$name.cpuinfo.txt")"
    exit $status
    ;;
truth)
    plan=$1 out=$2
    shift 2
    mkdir -p "$out"
    # the CPU side first: seconds, where the GPU side can take minutes
    start=$(date +%s)
    ./build/cpubench --plan "$plan" >"$out/cpu.csv" 2>"$out/cpu.log"
    cpu_status=$?
    echo "run_truth: cpubench --plan: exit $cpu_status, $(($(date +%s) - start)) s, $(grep -vc '^#' "$out/cpu.csv") lines"
    grep -v '^cpubench: \[' "$out/cpu.log" | head -5
    bash validate/run_device.sh "$plan" "$out" "" -- "$@"
    gpu_status=$?
    [ $gpu_status = 0 ] && [ $cpu_status = 0 ]
    exit $?
    ;;
*)
    echo "usage: run_truth.sh cpu-config OUTDIR NAME | truth PLAN OUTDIR [vkbench flags]" >&2
    exit 2
    ;;
esac
