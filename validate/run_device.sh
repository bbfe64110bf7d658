#!/bin/bash
# Runs on the GPU machine (validate/README.md, "Re-running on a GPU"): makes
# sure the Vulkan loader is there, records the GPU's identity and SM clocks before,
# during and after, runs build/vkbench over a plan, and writes the dataset:
# vkbench's provenance lines, this script's, then the header and the rows.
#
# usage: bash validate/run_device.sh PLAN OUTDIR [NAME] [-- vkbench flags]
#   NAME defaults to h100 / h200 from nvidia-smi's GPU name. Writes
#   OUTDIR/NAME.csv (the dataset), NAME.log (vkbench's stderr) and
#   NAME.clocks.csv (nvidia-smi samples every 500 ms during the run).
# A row whose first dispatch takes over RUN_DEVICE_MAX_DISPATCH_MS (2000)
# is skipped, so that a plan's run stays short; the skipped rows are then
# measured again, in the same call, at RUN_DEVICE_RETRY_MS (20000; 0: not)
# and appended to the dataset, whose provenance names their plan lines
# (NAME.skipped.plan and NAME.skipped.log keep the retry's plan and log).
# The GPU's clocks and settings are only read, never changed.
set -u

plan=$1
out=$2
shift 2
name=
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
    name=$1
    shift
fi
[ "${1:-}" = "--" ] && shift

# The NVIDIA ICD (libGLX_nvidia.so.0) needs glvnd's libGLdispatch besides
# the loader: the first H100 call failed without it. The .debs come from
# .gl/ (libvulkan1) and build/gldeb/ (libglvnd0 and friends).
if ! ldconfig -p | grep -q 'libvulkan\.so\.1' ||
    ! ldconfig -p | grep -q 'libGLdispatch\.so\.0'; then
    for f in .gl/*.deb build/gldeb/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
    ldconfig
fi
: "${VK_DRIVER_FILES:=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}"
export VK_DRIVER_FILES

smi() { nvidia-smi --query-gpu="$1" --format=csv,noheader,nounits 2>/dev/null | head -1 | sed 's/^ *//; s/ *$//'; }

gpu=$(smi name)
if [ -z "$name" ]; then
    case "$gpu" in
    *H100*) name=h100 ;;
    *H200*) name=h200 ;;
    *) name=gpu ;;
    esac
fi
mkdir -p "$out"
raw=$out/$name.raw.tmp
clocks=$out/$name.clocks.csv

before_sm=$(smi clocks.sm)
before_mem=$(smi clocks.mem)
before_temp=$(smi temperature.gpu)
before_pstate=$(smi pstate)
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,pstate,temperature.gpu,power.draw,utilization.gpu \
    --format=csv,nounits -lms 500 >"$clocks" 2>/dev/null &
sampler=$!

first_ms=${RUN_DEVICE_MAX_DISPATCH_MS:-2000}
retry_ms=${RUN_DEVICE_RETRY_MS:-20000}
start=$(date +%s)
./build/vkbench --plan "$plan" --max-dispatch-ms "$first_ms" "$@" >"$raw" 2>"$out/$name.log"
status=$?
# vkbench names a skipped row "PLAN:LINE: skipped ..."
skipped=$(sed -n 's/^vkbench: .*:\([0-9][0-9]*\): skipped .*/\1/p' "$out/$name.log" | paste -sd, -)
retried=""
if [ -n "$skipped" ] && [ "$retry_ms" != 0 ]; then
    {
        echo "# the rows of $plan that vkbench skipped at --max-dispatch-ms $first_ms (plan lines $skipped), measured again at $retry_ms"
        for l in ${skipped//,/ }; do sed -n "${l}p" "$plan"; done
    } >"$out/$name.skipped.plan"
    ./build/vkbench --plan "$out/$name.skipped.plan" "$@" --max-dispatch-ms "$retry_ms" >"$raw.retry" \
        2>"$out/$name.skipped.log"
    rstatus=$?
    [ $rstatus = 0 ] || status=$rstatus
    retried=$(grep -v '^#' "$raw.retry" | tail -n +2)
fi
end=$(date +%s)

after_sm=$(smi clocks.sm)
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null

# SM clock while vkbench ran, from the samples taken with the GPU busy.
during=$(awk -F', *' 'NR > 1 && $7 + 0 > 0 { print $2 }' "$clocks" | sort -n |
    awk '{ v[NR] = $1 } END { if (NR) printf "%d %d %d", v[1], v[int((NR + 1) / 2)], v[NR]; else printf "- - -" }')
read -r during_min during_med during_max <<<"$during"

{
    grep '^#' "$raw"
    echo "# nvidia_smi_name: $gpu"
    echo "# nvidia_smi_driver: $(smi driver_version)"
    echo "# nvidia_smi_uuid: $(smi uuid)"
    echo "# sm_clock_mhz_before: $before_sm"
    echo "# sm_clock_mhz_after: $after_sm"
    echo "# sm_clock_mhz_max: $(smi clocks.max.sm)"
    echo "# sm_clock_mhz_while_busy_min_median_max: $during_min $during_med $during_max"
    echo "# mem_clock_mhz_before: $before_mem"
    echo "# mem_clock_mhz_max: $(smi clocks.max.mem)"
    echo "# pstate_before: $before_pstate"
    echo "# temperature_c_before_after: $before_temp $(smi temperature.gpu)"
    echo "# plan: $plan"
    echo "# vkbench_flags: --max-dispatch-ms $first_ms $*"
    echo "# wall_seconds: $((end - start))"
    echo "# vkbench_exit_status: $status"
    if [ -n "$skipped" ]; then
        if [ "$retry_ms" != 0 ]; then
            echo "# + $(printf '%s' "$retried" | grep -c .) of the $(echo "$skipped" | tr , '\n' | grep -c .) rows that vkbench skipped at --max-dispatch-ms $first_ms (plan lines $skipped), measured again in the same call at --max-dispatch-ms $retry_ms ($name.skipped.log), appended at the end"
        else
            echo "# vkbench skipped plan lines $skipped at --max-dispatch-ms $first_ms: not measured"
        fi
    fi
    grep -v '^#' "$raw"
    [ -n "$retried" ] && printf '%s\n' "$retried"
} >"$out/$name.csv"
rm -f "$raw" "$raw.retry"

rows=$(grep -vc '^#' "$out/$name.csv")
echo "run_device: $gpu, $((rows - 1)) rows, vkbench exit $status, $((end - start)) s, SM clock $before_sm -> $after_sm MHz (busy median $during_med)"
grep -E 'FAIL|refused|skipped|vkbench: [^[]' "$out/$name.log" | head -20
exit $status
