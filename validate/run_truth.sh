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
    bash validate/cpubench/fixed_section.sh "$out/$name.fixed.csv" >>"$out/$name.ini" || status=1
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
