#!/bin/bash
# End-to-end test of build/vkbench on lavapipe (Mesa's CPU Vulkan driver):
# every pattern through validate/plans/smoke.plan with every result checked
# by the harness itself, the dataset CSV's shape as validate/README.md gives it, and
# the error paths (bad usage -> 2, no device -> 1, one line on stderr).
# Timings from lavapipe mean nothing and are never kept.
set -eu

cd "$(dirname "$0")/.."
# make test passes the binary it built; alone, build it here.
if [ -z "${VKBENCH:-}" ]; then
    make -s -f validate/vkbench.mk build/vkbench
    VKBENCH=build/vkbench
fi
vkbench() { "$VKBENCH" "$@"; }

icd=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json 2>/dev/null | head -1 || true)
if [ -z "$icd" ]; then
    echo "lavapipe not found under /usr/share/vulkan/icd.d (mesa-vulkan-drivers)" >&2
    echo "0 passed, 1 failed"
    exit 1
fi
export VK_DRIVER_FILES=$icd

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

header='pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,reps,time_us_median,time_us_min,time_us_max,check'
plan=validate/plans/smoke.plan

# --- the smoke plan: every pattern, every row checked ------------------
rc=0
vkbench --plan $plan --reps 3 --warmup 1 >"$tmp/smoke.csv" 2>"$tmp/smoke.err" || rc=$?
check "smoke plan exits 0" test "$rc" -eq 0
[ "$rc" -eq 0 ] || cat "$tmp/smoke.err" >&2

want=$(vkbench --plan $plan --dry-run 2>/dev/null | tail -n +2 | wc -l)
rows=$(grep -v '^#' "$tmp/smoke.csv" | tail -n +2)
check "one row per configuration ($want)" test "$(printf '%s\n' "$rows" | grep -c .)" -eq "$want"
check "every row's check is ok" test -z "$(printf '%s\n' "$rows" | awk -F, '$13 != "ok"')"
check "every row has 3 reps and min <= median <= max" test -z "$(printf '%s\n' "$rows" |
    awk -F, '$9 != 3 || !($11 <= $10 && $10 <= $12) || $11 <= 0')"
for p in store counter counter-aggregated compaction histogram histogram-shared \
         histogram-u8-cas histogram-u16-cas cas-append bitmask reduce distinct-lines; do
    check "pattern $p measured" grep -q "^$p," "$tmp/smoke.csv"
done

# --- the CSV's shape: provenance first, then the header -----------------
first_data=$(grep -vn '^#' "$tmp/smoke.csv" | head -1 | cut -d: -f1)
check "provenance lines come first" test "$(head -n $((first_data - 1)) "$tmp/smoke.csv" | grep -vc '^# [a-z0-9_]*: .')" -eq 0
check "header is the contract's" test "$(sed -n "${first_data}p" "$tmp/smoke.csv")" = "$header"
for key in gpu driver vulkan_api subgroup_size date harness_commit \
           max_compute_shared_memory_bytes max_compute_workgroup_invocations; do
    check "provenance has $key" grep -q "^# $key: ." "$tmp/smoke.csv"
done
check "no comment lines after the header" test "$(tail -n +"$first_data" "$tmp/smoke.csv" | grep -c '^#')" -eq 0

# --- a command-line grid -------------------------------------------------
rc=0
vkbench --pattern histogram,histogram-u8-cas --n 2^12 --bins 1,3,4 --hot 0,0.5 \
    --reps 2 --warmup 0 >"$tmp/grid.csv" 2>/dev/null || rc=$?
# histogram: 3 bins x 2 hot; the u8 histogram ignores --hot, so 3 more
check "grid exits 0 and has 9 rows" test "$rc" -eq 0 -a "$(grep -c ',ok$' "$tmp/grid.csv")" -eq 9

# --- the clock guard: off by default on a CPU device; its probe path runs
# when asked for (with a tolerance CPU timing noise cannot exceed) --------
check "clock guard off by default on lavapipe" grep -q '^# clock_guard: off$' "$tmp/smoke.csv"
rc=0
vkbench --pattern counter,compaction,histogram-u16-cas --n 2^14 --reps 3 --warmup 1 \
    --clock-guard 10000 --clock-evidence >"$tmp/guard.csv" 2>"$tmp/guard.err" || rc=$?
check "clock guard run exits 0 with 3 ok rows" test "$rc" -eq 0 -a "$(grep -c ',ok,[0-9.]*,[0-9]*$' "$tmp/guard.csv")" -eq 3
check "clock guard recorded in provenance" grep -q '^# clock_guard: each repetition' "$tmp/guard.csv"
check "clock guard reference recorded" grep -q '^# clock_probe_us_reference: [0-9]' "$tmp/guard.csv"
check "clock guard tolerance and its source recorded" grep -q '^# clock_guard_tolerance: 10000.0% (--clock-guard; ' "$tmp/guard.csv"
check "each row carries its clock evidence (columns)" grep -q ',check,clock_ratio_max,clock_rewarms$' "$tmp/guard.csv"
check "each row's slowest accepted probe is within the tolerance" \
    awk -F, '/,ok,/ && ($(NF-1) <= 0 || $(NF-1) > 101) { bad = 1 } END { exit bad }' "$tmp/guard.csv"
check "no clock columns with the guard off" grep -q ',check$' "$tmp/smoke.csv"
rc=0
vkbench --pattern counter --n 2^14 --reps 2 --warmup 0 --clock-guard 10000 >"$tmp/guard2.csv" 2>/dev/null || rc=$?
check "with the guard on but no --clock-evidence, the contract's header" \
    test "$rc" -eq 0 -a "$(grep -c '^pattern,.*,check$' "$tmp/guard2.csv")" -eq 1

# --- --count-cas: each CAS-histogram thread's compare-and-swaps, summed;
# a thread takes at least one, and with one bin (every lane on one word)
# all but the first to land take more; other patterns leave the column empty
rc=0
vkbench --pattern histogram-u16-cas,histogram-u8-cas,counter --n 2^12 --bins 1,2^16 \
    --reps 2 --warmup 0 --count-cas >"$tmp/cas.csv" 2>/dev/null || rc=$?
check "--count-cas exits 0 with 5 ok rows" test "$rc" -eq 0 -a "$(grep -c ',ok,' "$tmp/cas.csv")" -eq 5
check "--count-cas adds the cas_attempts column" grep -q "^$header,cas_attempts\$" "$tmp/cas.csv"
check "every CAS row counts at least one per thread" test -z "$(grep -- '-cas,' "$tmp/cas.csv" |
    awk -F, '!($14 >= $2)')"
check "one bin takes more than one per thread" test -n "$(grep -- '-cas,4096,256,1,1,' "$tmp/cas.csv" |
    awk -F, '$14 > 2 * $2')"
check "counter's cas_attempts is empty" grep -q '^counter,.*,ok,$' "$tmp/cas.csv"
# cas-append counts only its selected threads (behind the keys in o[]):
# at least one each, at most the first-come n(n+1)/2 of them all
rc=0
vkbench --pattern cas-append --n 2^12 --selectivity 0.1,1 --reps 2 --warmup 0 --count-cas \
    >"$tmp/app.csv" 2>/dev/null || rc=$?
check "--count-cas on cas-append exits 0 with 2 ok rows" test "$rc" -eq 0 -a "$(grep -c ',ok,' "$tmp/app.csv")" -eq 2
check "cas-append at S = 1 counts between n and n(n+1)/2" test -n "$(grep '^cas-append,4096,256,1,' "$tmp/app.csv" |
    awk -F, '$14 >= 4096 && $14 <= 4096 * 4097 / 2')"
check "cas-append at S = 0.1 counts fewer than at S = 1" test -n "$(awk -F, '/^cas-append,4096,256,0.1,/ { a = $14 }
    /^cas-append,4096,256,1,/ { b = $14 } END { if (a > 0 && a < b) print "ok" }' "$tmp/app.csv")"
# --win-order: one line per winner, each selected thread once, in slot
# order, whose counts add up to the row's cas_attempts; the first read of
# a thread can only have seen fewer winners than its own slot
for first in atomic guess; do
    rc=0
    vkbench --pattern cas-append --n 2^11 --wg 64,256 --selectivity 0.2,1 --reps 1 --warmup 0 \
        --count-cas --cas-first $first --win-order "$tmp/wins.csv" >"$tmp/wo.csv" 2>/dev/null || rc=$?
    check "--win-order --cas-first $first exits 0 with 4 ok rows" test "$rc" -eq 0 -a "$(grep -c ',ok,' "$tmp/wo.csv")" -eq 4
    check "--win-order --cas-first $first: winners match the counts" test -n "$(awk -F, '
        /^#/ || $1 == "pattern" || $1 == "n" { next }
        FILENAME == ARGV[1] { if ($1 == "cas-append") want[$2 "," $3 "," $4] = $14; next }
        { k = $1 "," $2 "," $3
          if ($4 != seen[k]++ || dup[k "," $5]++ || $7 > $4) bad = 1
          sum[k] += $6 }
        END { for (k in want) if (sum[k] != want[k] || seen[k] < 1) bad = 1
              if (!bad && length(want) == 4) print "ok" }' "$tmp/wo.csv" "$tmp/wins.csv")"
done
check "--cas-first guess recorded in provenance" grep -q "^# cas_first: guess " "$tmp/wo.csv"
rc=0
vkbench --pattern histogram-shared --n 5000 --wg 32,256 --bins 1024 --smem-per-wg 8192 --flush all >"$tmp/fa.csv" 2>/dev/null || rc=$?
check "--flush all: histogram-shared's rows still check ok" test "$rc" -eq 0 -a "$(grep -c ',ok$' "$tmp/fa.csv")" -eq 2
check "--flush all recorded in provenance" grep -q "^# flush: all " "$tmp/fa.csv"
check "--win-order's file carries the run's provenance" test "$(head -1 "$tmp/wins.csv" | cut -c1-7)" = "# gpu: " -a \
    "$(grep -c '^# harness_commit: \|^# cas_first: guess \|^# side_file: win-order ' "$tmp/wins.csv")" -eq 3
check "every selected thread won once (S = 1: 2048 lines a row)" test "$(grep -c '^2048,256,1,' "$tmp/wins.csv")" -eq 2048

# --- --select-unit: one draw per warp, workgroup or lane 0; the harness's
# own reference follows the unit, so every row must still check (a shader
# that ignored the unit would fail lane0's counter: n/32 selected, not n)
for u in warp workgroup lane0; do
    rc=0
    vkbench --select-unit $u --pattern counter,bitmask,store,compaction --n 2^13 \
        --wg 64,256 --selectivity 0.3,1 --reps 1 --warmup 0 >"$tmp/sel.csv" 2>/dev/null || rc=$?
    check "--select-unit $u exits 0 with 16 ok rows" test "$rc" -eq 0 -a "$(grep -c ',ok$' "$tmp/sel.csv")" -eq 16
    check "--select-unit $u recorded in provenance" grep -q "^# select_unit: $u " "$tmp/sel.csv"
done
for tl in barrier fence; do
    rc=0
    vkbench --tail $tl --select-unit warp --pattern bitmask,store,histogram-shared --n 2^13 \
        --wg 256 --selectivity 0.3 --reps 1 --warmup 0 >"$tmp/tail.csv" 2>/dev/null || rc=$?
    check "--tail $tl exits 0 with 3 ok rows" test "$rc" -eq 0 -a "$(grep -c ',ok$' "$tmp/tail.csv")" -eq 3
    check "--tail $tl recorded in provenance" grep -q "^# tail: $tl " "$tmp/tail.csv"
done
rc=0
vkbench --spin 200 --select-unit warp --pattern bitmask,store --n 2^13 --wg 256 \
    --selectivity 0.3 --reps 1 --warmup 0 >"$tmp/spin.csv" 2>/dev/null || rc=$?
check "--spin exits 0 with 2 ok rows" test "$rc" -eq 0 -a "$(grep -c ',ok$' "$tmp/spin.csv")" -eq 2
check "--spin recorded in provenance" grep -q "^# spin: 200 " "$tmp/spin.csv"
check "the thread unit adds no provenance line" test "$(grep -c '^# select_unit' "$tmp/smoke.csv")" -eq 0

# --- error paths ------------------------------------------------------------
expect() { # expect NAME STATUS PATTERN COMMAND...: exit status, one stderr line
    local name=$1 want=$2 re=$3 got=0
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" || got=$?
    if [ "$got" -eq "$want" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
        grep -q -- "$re" "$tmp/err"; then
        ok "$name"
    else
        bad "$name (status $got, stderr: $(head -c 300 "$tmp/err"))"
    fi
}
expect "unknown pattern -> 2" 2 "unknown pattern 'nope'" \
    vkbench --pattern nope
check "unknown pattern writes nothing on stdout" test ! -s "$tmp/out"
expect "malformed --n -> 2" 2 "--n" vkbench --pattern counter --n 12x
expect "selectivity out of range -> 2" 2 "--selectivity" \
    vkbench --pattern counter --selectivity 2
expect "bad --clock-guard -> 2" 2 "--clock-guard" vkbench --pattern counter --clock-guard -1
expect "bad --select-unit -> 2" 2 "--select-unit: 'lane1'" vkbench --pattern counter --select-unit lane1
expect "bad --spin -> 2" 2 "--spin: 'x'" vkbench --pattern counter --spin x
expect "octal-looking --spin refused (strict numbers) -> 2" 2 "--spin: '010'" vkbench --pattern counter --spin 010
expect "hex --max-dispatch-ms refused (strict numbers) -> 2" 2 "--max-dispatch-ms: '0x10'" vkbench --pattern counter --max-dispatch-ms 0x10
expect "bad --tail -> 2" 2 "--tail: 'wait'" vkbench --pattern counter --tail wait
expect "--trace on a device without SM builtins -> 1" 1 "lacks VK_NV_shader_sm_builtins, which --trace needs" \
    vkbench --pattern cas-append --n 256 --trace "$tmp/trace.csv"
check "a refused --trace writes no file" test ! -e "$tmp/trace.csv"
expect "bad --cas-first -> 2" 2 "--cas-first: 'load'" vkbench --pattern cas-append --cas-first load
expect "bad --flush -> 2" 2 "--flush: 'some'" vkbench --pattern histogram-shared --flush some
expect "--win-order without --count-cas -> 2" 2 "--win-order needs --count-cas" \
    vkbench --pattern cas-append --win-order "$tmp/w.csv"
expect "unwritable --win-order -> 1" 1 "--win-order: cannot write" \
    vkbench --pattern cas-append --n 256 --count-cas --win-order "$tmp/no/such/dir/w.csv"
expect "unknown flag -> 2" 2 "--frobnicate" vkbench --pattern counter --frobnicate 1
expect "unreadable plan -> 2" 2 "$tmp/missing.plan" vkbench --plan "$tmp/missing.plan"
printf -- '--pattern counter\n\n--pattern counter --wg 0\n' >"$tmp/bad.plan"
expect "bad plan line named -> 2" 2 "bad.plan:3:.*--wg" vkbench --plan "$tmp/bad.plan"
printf -- '--pattern counter --n 010\n' >"$tmp/octal.plan"
expect "plan value with a leading zero refused (strict numbers) -> 2" 2 "octal.plan:1:.*--n: '010'" vkbench --plan "$tmp/octal.plan"
printf -- '--pattern counter --selectivity 0x1p-1\n' >"$tmp/hex.plan"
expect "plan fraction in hex refused (strict numbers) -> 2" 2 "hex.plan:1:.*--selectivity" vkbench --plan "$tmp/hex.plan"
VK_DRIVER_FILES=$tmp/no_such_icd.json expect "no Vulkan driver -> 1" 1 "Vulkan" \
    vkbench --pattern counter --n 4096
# lavapipe's maxStorageBufferRange is 128 MiB: 2^25 + 1024 threads' counts
# need more, though the u16 histogram alone fits
expect "--count-cas output past the buffer range refused -> 1" 1 "maxStorageBufferRange" \
    vkbench --pattern histogram-u16-cas --n 33555456 --wg 1024 --bins 65536 --count-cas
expect "shared memory past the device limit refused -> 1" 1 "maxComputeSharedMemorySize" \
    vkbench --pattern histogram-shared --n 4096 --bins 2^16
expect "--max-dispatch-ms skips a slow configuration" 0 "skipped" \
    vkbench --pattern counter --n 4096 --max-dispatch-ms 0.000001
check "a skipped configuration writes no row" test "$(grep -vc '^#' "$tmp/out")" -eq 1

finish
