#!/usr/bin/env bash
# tests/fuzz/fuzz.sh - runs the libFuzzer targets that tests/fuzz/fuzz.mk
# built and prints one report (docs/robustness.md).
#
#   fuzz.sh fuzz  SECONDS BUILD_DIR TARGET...   fuzz each target for SECONDS
#   fuzz.sh smoke SECONDS BUILD_DIR TARGET...   replay every committed input,
#                                               then fuzz each for SECONDS
#
# TARGET is a binary name, fuzz_NAME; its seeds are tests/fuzz/corpus/NAME/,
# its committed crashers tests/fuzz/regress/NAME/.
#
# libFuzzer stops at its first crash, hang (-timeout) or out-of-memory, so
# `fuzz` restarts a target for the time left after each finding, from the
# corpus it has grown (BUILD_DIR/work/NAME, kept between runs).  Findings
# are told apart by the first frame in the project's sources: the first
# input of each goes to tests/fuzz/regress/NAME/ (to be committed once the
# bug is fixed), the rest stay in BUILD_DIR/artifacts/NAME/.  After
# FUZZ_MAX_FINDINGS findings (default 5) a target stops early: the rest
# would mostly be the same bugs again.  Executions are the sum of
# libFuzzer's stat::number_of_executed_units over the restarts.
#
# `smoke` saves nothing into the tree: its findings stay under
# BUILD_DIR/smoke/.  Either mode exits 1 when anything crashed, hung or ran
# out of memory, 0 otherwise.
set -uo pipefail

mode=$1 seconds=$2 build=$3
shift 3
[ "$mode" = fuzz ] || [ "$mode" = smoke ] || { echo "fuzz.sh: mode fuzz or smoke, not '$mode'" >&2; exit 2; }
case $seconds in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 2 ;; esac
max_findings=${FUZZ_MAX_FINDINGS:-5}
here=tests/fuzz
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit+changes"

# The sanitizers: stop at the first report, with the stack that makes it
# readable; leaks count (libFuzzer checks them per input).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# One input is at most 64 KiB; one that runs 5 s is a hang; 2 GiB is out of memory.
common=(-max_len=65536 -timeout=5 -rss_limit_mb=2048 -print_final_stats=1)
# A replay allows more: a committed input that took 3 s under the sanitizers
# on a loaded machine is a slow path to fix, not a flaky CI stage; a real
# hang still runs past 20 s.
replay=(-max_len=65536 -timeout="${FUZZ_REPLAY_TIMEOUT:-20}" -rss_limit_mb=2048 -print_final_stats=1)

dict_for() {
    case $1 in
    config) echo "$here/dict/config.dict" ;;
    cpu_config) echo "$here/dict/cpu_config.dict" ;;
    override) echo "$here/dict/override.dict" ;;
    table) echo "$here/dict/table.dict" ;;
    *) echo "$here/dict/params.dict" ;;
    esac
}

# The first frame in the project's own sources, else the sanitizer's summary.
stack_top() {
    local log=$1 top
    top=$(grep -m1 -E '^ *#[0-9]+ 0x[0-9a-f]+ in [^ ]+ [^ ]*/?(model|sim|validate|util|app|api)/[^ ]+' "$log" |
          sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ in ([^ ]+) [^ ]*((model|sim|validate|util|app|api)\/[^ ]+).*/\1 \2/')
    local what
    what=$(grep -m1 -E 'SUMMARY: |ERROR: libFuzzer: |runtime error: ' "$log" | sed -E 's/^.*(SUMMARY: |ERROR: libFuzzer: )//; s/ +$//')
    echo "${what:-unknown}${top:+ at $top}"
}

# The function the target called: the frame just above the harness's.
entry_of() {
    grep -B1 -m1 -E ' in LLVMFuzzerTestOneInput ' "$1" | head -1 | sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ in ([^ ]+) .*/\1/'
}

total_exec=0 total_crash=0 total_hang=0 total_oom=0 total_distinct=0
declare -A seen
keep_dir=""
report=()
findings=()

# One libFuzzer run; adds to the target's counts.  Sets last_artifact.
one_run() {
    local name=$1 log=$2
    shift 2
    "$build/fuzz_$name" "$@" </dev/null >"$log" 2>&1
    local rc=$?
    local n
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    exec_n=$((exec_n + ${n:-0}))
    last_artifact=$(sed -n 's/^.*Test unit written to \(.*\)$/\1/p' "$log" | grep -v '/slow-unit-' | tail -1)
    # What happened, from libFuzzer's own words: a replay of given files
    # writes no artifact to go by.  A failure it does not name (a leak, a
    # sanitizer report, a signal, or a failure without any report) is a crash.
    local kind=""
    if grep -q 'ERROR: libFuzzer: timeout' "$log"; then
        kind=hang
    elif grep -q 'ERROR: libFuzzer: out-of-memory' "$log"; then
        kind=oom
    elif [ -n "$last_artifact" ] || [ $rc -ne 0 ]; then
        kind=crash
    fi
    [ -n "$last_artifact" ] || last_artifact="(no input written, rc $rc)"
    case $kind in
    crash) crash_n=$((crash_n + 1)) ;;
    hang) hang_n=$((hang_n + 1)) ;;
    oom) oom_n=$((oom_n + 1)) ;;
    esac
    if [ -n "$kind" ]; then
        local top where=$last_artifact
        top=$(stack_top "$log")
        # In `fuzz`, the first input of each distinct finding joins the regressions.
        if [ -n "$keep_dir" ] && [ -f "$last_artifact" ]; then
            local key="$name|${top#* at }"
            # A hang stops wherever the loop happened to be: one per reader entry.
            [ "$kind" = hang ] && key="$name|hang|$(entry_of "$log")"
            if [ -z "${seen[$key]:-}" ]; then
                seen[$key]=1
                distinct_n=$((distinct_n + 1))
                cp "$last_artifact" "$keep_dir/" && where=$keep_dir/$(basename "$last_artifact")
            else
                findings+=("$name $kind $last_artifact: again: $top")
                return 1
            fi
        fi
        findings+=("$name $kind $where: $top (log $log)")
        return 1
    fi
    return 0
}

logs=$build/logs
mkdir -p "$logs"
t_start=$(date +%s)
for bin in "$@"; do
    name=${bin#fuzz_}
    seeds=$here/corpus/$name
    regress=$here/regress/$name
    [ -x "$build/$bin" ] || { echo "fuzz.sh: $build/$bin is not built" >&2; exit 2; }
    [ -d "$seeds" ] || { echo "fuzz.sh: no seed corpus $seeds" >&2; exit 2; }
    exec_n=0 crash_n=0 hang_n=0 oom_n=0 distinct_n=0
    dict=$(dict_for "$name")
    dictarg=()
    [ -f "$dict" ] && dictarg=(-dict="$dict")

    if [ "$mode" = smoke ]; then
        # Every committed input once, no fuzzing: a fixed bug stays fixed.
        mapfile -t files < <(find "$seeds" "$regress" -type f ! -name '*.md' 2>/dev/null | sort)
        art=$build/smoke/$name
        rm -rf "$art" "$build/smoke/work/$name"
        mkdir -p "$art" "$build/smoke/work/$name"
        # A batch of files stops at its first failure: name the file that
        # failed (libFuzzer's last "Running:" line) and go on after it.
        r=0
        while [ ${#files[@]} -gt 0 ]; do
            r=$((r + 1))
            one_run "$name" "$logs/$name-replay-$r.log" "${replay[@]}" -artifact_prefix="$art/" "${files[@]}" && break
            failed=$(sed -n 's/^Running: //p' "$logs/$name-replay-$r.log" | tail -1)
            findings[${#findings[@]}-1]="${findings[${#findings[@]}-1]} [replaying ${failed:-?}]"
            rest=()
            seen_failed=""
            for f in "${files[@]}"; do
                [ -n "$seen_failed" ] && rest+=("$f")
                [ "$f" = "$failed" ] && seen_failed=1
            done
            [ -n "$seen_failed" ] || break # no file named: do not loop on the same batch
            files=("${rest[@]}")
        done
        if [ "$seconds" -gt 0 ]; then
            one_run "$name" "$logs/$name-smoke.log" "${common[@]}" "${dictarg[@]}" -artifact_prefix="$art/" \
                -max_total_time="$seconds" "$build/smoke/work/$name" "$seeds"
        fi
    else
        work=$build/work/$name
        art=$build/artifacts/$name
        keep_dir=$regress
        mkdir -p "$work" "$regress" "$art"
        end=$(($(date +%s) + seconds))
        k=0
        while :; do
            left=$((end - $(date +%s)))
            [ $left -gt 0 ] || break
            k=$((k + 1))
            one_run "$name" "$logs/$name-$k.log" "${common[@]}" "${dictarg[@]}" -artifact_prefix="$art/" \
                -max_total_time="$left" "$work" "$seeds" && break
            [ $((crash_n + hang_n + oom_n)) -lt "$max_findings" ] || break
        done
    fi
    report+=("$(printf '%-14s %12d %8d %6d %5d %9s' "$name" "$exec_n" "$crash_n" "$hang_n" "$oom_n" \
        "$([ "$mode" = fuzz ] && echo $distinct_n || echo -)")")
    total_distinct=$((total_distinct + distinct_n))
    total_exec=$((total_exec + exec_n)) total_crash=$((total_crash + crash_n))
    total_hang=$((total_hang + hang_n)) total_oom=$((total_oom + oom_n))
done
t_end=$(date +%s)

if [ "$mode" = smoke ]; then
    echo "fuzz-smoke report: commit $commit, committed inputs replayed, then $seconds s of fuzzing per target"
else
    echo "fuzz report: commit $commit, $seconds s per target"
fi
printf '%-14s %12s %8s %6s %5s %9s\n' target executions crashes hangs ooms distinct
printf '%s\n' "${report[@]}"
printf '%-14s %12d %8d %6d %5d %9s\n' total "$total_exec" "$total_crash" "$total_hang" "$total_oom" \
    "$([ "$mode" = fuzz ] && echo $total_distinct || echo -)"
if [ ${#findings[@]} -gt 0 ]; then
    echo "findings:"
    printf '  %s\n' "${findings[@]}"
fi
bad=$((total_crash + total_hang + total_oom))
echo "fuzz $mode: $# targets, $total_exec executions in $((t_end - t_start)) s: $([ $bad = 0 ] && echo 'no crash, hang or oom' ||
    echo "FAILED, $total_crash crashes, $total_hang hangs, $total_oom ooms$([ "$mode" = fuzz ] && echo ", $total_distinct distinct, inputs in tests/fuzz/regress/")")"
[ $bad = 0 ]
