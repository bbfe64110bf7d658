#!/bin/bash
# run_truth.sh - on the GPU machine: measures a routing truth set, the same
# configurations timed by vkbench on the GPU and by cpubench on the CPU tier
# of the same host, each side with its data already resident
# (docs/accuracy.md, "Routing truth set"), or only the host's CPU-tier
# constants (the configs/cpu-*.ini that the cost tables use).
#
# usage: bash validate/run_truth.sh cpu-config OUTDIR NAME [RUNS]
#        bash validate/run_truth.sh truth PLAN OUTDIR [vkbench flags]
#   cpu-config: OUTDIR/NAME.ini, each figure the median of RUNS (default 9)
#               separate runs (NAME.runK.ini, .csv raw timings, .fixed.csv),
#               NAME.cpuinfo.txt, NAME.log
#   truth:      OUTDIR/<gpu>.csv (run_device.sh: dataset, log, clocks) and
#               OUTDIR/cpu.csv (cpubench --plan on every online CPU), cpu.log
# Needs build/vkbench, build/cpubench (static) and .gl/ (see DEVICE notes in
# validate/README.md).  Reads the GPU's clocks, never changes them.
set -u
# CPUBENCH may name the binary (make cpu-config passes its own)
cpb=${CPUBENCH:-./build/cpubench}
mode=$1
shift
case "$mode" in
cpu-config)
    out=$1 name=$2 runs=${3:-9}
    mkdir -p "$out"
    lscpu >"$out/$name.cpuinfo.txt" 2>&1
    status=0
    inis=()
    # separate runs, each the whole measurement; the config is their median
    for r in $(seq 1 "$runs"); do
        run=$out/$name.run$r
        "$cpb" --csv "$run.csv" --ini "$run.ini" --name "$name" 2>>"$out/$name.log" || status=1
        # the fixed costs: medians of whole tasks at n = 16 (fixed.plan)
        "$cpb" --plan validate/cpubench/fixed.plan >"$run.fixed.csv" 2>>"$out/$name.log" || status=1
        bash validate/cpubench/fixed_section.sh "$run.fixed.csv" >>"$run.ini" || status=1
        inis+=("$run.ini")
    done
    if [ "$runs" -gt 1 ]; then
        bash validate/cpubench/median_ini.sh "${inis[@]}" >"$out/$name.ini" || status=1
    else
        cp "${inis[0]}" "$out/$name.ini"
    fi
    echo "run_truth: cpu-config $name: exit $status, $runs runs, $(nproc) CPUs, $(grep -m1 'Model name' "$out/$name.cpuinfo.txt")"
    exit $status
    ;;
truth)
    plan=$1 out=$2
    shift 2
    mkdir -p "$out"
    # the CPU side first: seconds, where the GPU side can take minutes
    start=$(date +%s)
    "$cpb" --plan "$plan" >"$out/cpu.csv" 2>"$out/cpu.log"
    cpu_status=$?
    echo "run_truth: cpubench --plan: exit $cpu_status, $(($(date +%s) - start)) s, $(grep -vc '^#' "$out/cpu.csv") lines"
    grep -v '^cpubench: \[' "$out/cpu.log" | head -5
    bash validate/run_device.sh "$plan" "$out" "" -- "$@"
    gpu_status=$?
    [ $gpu_status = 0 ] && [ $cpu_status = 0 ]
    exit $?
    ;;
*)
    echo "usage: run_truth.sh cpu-config OUTDIR NAME [RUNS] | truth PLAN OUTDIR [vkbench flags]" >&2
    exit 2
    ;;
esac
