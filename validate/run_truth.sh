#!/bin/bash
# run_truth.sh - on the GPU machine: measures a routing truth set, the same
# configurations timed by vkbench on the GPU and by cpubench on the CPU tier
# of the same host, each side with its data already resident
# (docs/accuracy.md, "Routing truth set"), or only the host's CPU-tier
# constants (the configs/cpu-*.ini that the cost tables use).
#
# usage: bash validate/run_truth.sh cpu-config OUTDIR NAME [RUNS]
#        bash validate/run_truth.sh truth PLAN OUTDIR [vkbench flags]
#        bash validate/run_truth.sh cpu PLAN OUTDIR   (the CPU side alone)
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
# A host whose pool hands a task over in more than this many microseconds
# is not measuring the CPU tier: truth set 5's first H100 host took 249 us
# (every other 16-core host 1.5 to 2.2) and timed every row 10-300x slow.
host_max_us=${HOST_MAX_FIXED_US:-10}

# host_check OUT TAG: the scan family's whole-task median at n = 1024
# (fixed.plan, fixed_section.sh); 0 when it is at most host_max_us, else 1
# with one line.
host_check() {
    if ! "$cpb" --plan validate/cpubench/fixed.plan >"$1.host-$2.csv" 2>"$1.host-$2.log"; then
        echo "run_truth: host check $2: cpubench --plan validate/cpubench/fixed.plan failed ($(head -1 "$1.host-$2.log"))"
        return 1
    fi
    # the scan family's median, as the [fixed] section of a config takes it
    local m
    m=$(bash validate/cpubench/fixed_section.sh "$1.host-$2.csv" 2>/dev/null | awk '$1 == "scan_fixed_us" { print $3 }')
    if [ -z "$m" ] || awk -v m="$m" -v max="$host_max_us" 'BEGIN { exit !(m > max) }'; then
        echo "run_truth: host check $2: a task at n = 1024 takes ${m:-?} us (limit $host_max_us): this host cannot time the CPU tier; its CPU rows must not be scored"
        return 1
    fi
    echo "run_truth: host check $2: a task at n = 1024 takes $m us"
}

# cpu_side PLAN OUT: cpubench --plan between two host checks; OUT/cpu.csv.
cpu_side() {
    local st=0 rc start
    host_check "$2/cpu" before || st=3
    start=$(date +%s)
    "$cpb" --plan "$1" >"$2/cpu.csv" 2>"$2/cpu.log"
    rc=$?
    [ $rc = 0 ] || st=1
    echo "run_truth: cpubench --plan: exit $rc, $(($(date +%s) - start)) s, $(grep -vc '^#' "$2/cpu.csv") lines"
    grep -v '^cpubench: \[' "$2/cpu.log" | head -5
    host_check "$2/cpu" after || st=3
    return $st
}
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
truth | cpu)
    plan=$1 out=$2
    shift 2
    mkdir -p "$out"
    # the CPU side first: seconds, where the GPU side can take minutes
    cpu_side "$plan" "$out"
    cpu_status=$?
    [ "$mode" = cpu ] && exit $cpu_status
    # a truth set is no contract dataset: its rows carry the clock evidence
    bash validate/run_device.sh "$plan" "$out" "" -- --clock-evidence "$@"
    gpu_status=$?
    # a failed host check (3) says more than a failed run (1): it wins
    [ $cpu_status = 3 ] && exit 3
    [ $gpu_status = 0 ] && [ $cpu_status = 0 ]
    exit $?
    ;;
*)
    echo "usage: run_truth.sh cpu-config OUTDIR NAME [RUNS] | truth PLAN OUTDIR [vkbench flags] | cpu PLAN OUTDIR" >&2
    exit 2
    ;;
esac
