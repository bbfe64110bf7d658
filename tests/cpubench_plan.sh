#!/usr/bin/env bash
# cpubench_plan.sh - build/cpubench's plan mode: a small plan with every
# pattern (n 2^12 to 2^14, 2 workers, 2 repetitions) gives the dataset CSV
# atomsim reads (provenance, the contract's header, one row per distinct
# configuration, normalized as vkbench normalizes them), every row checked
# ok by the serial reference, with positive times, and the same rows but for
# the times on a second run; bad plans and options exit 2 with one line on
# stderr and nothing on stdout.  Builds nothing: CPUBENCH names the binary
# (default build/cpubench).  A few seconds on 2 cores.
set -u
cd "$(dirname "$0")/.."
C=${CPUBENCH:-build/cpubench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

if [ ! -x "$C" ]; then
    echo "FAIL $C is not built (make build/cpubench)"
    exit 1
fi

header='pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,reps,time_us_median,time_us_min,time_us_max,check'
cat >"$tmp/small.plan" <<'EOF'
# every pattern, with the edges: n not a multiple of 16 or of the workers'
# slices, selectivity 0 and 1, bins not a power of two and one bin (every
# element on one counter), sub-word bins that wrap, shared memory "max"
--pattern all --n 2^12
--pattern all --n 2^14 --selectivity 0.3 --bins 3 --hot 0.5 --addresses 7 --smem-per-wg max

--pattern histogram,histogram-u8-cas,histogram-u16-cas,distinct-lines --n 10000 --bins 1,5,4096 --addresses 1,1024
--pattern counter,compaction,cas-append,bitmask,store --n=5000 --selectivity 0,0.001,1   # a comment
--pattern counter --n 2^12   # a repeat: dropped
EOF
# 12 + 12 + (3 + 3 + 3 + 2: bins and addresses only where the pattern reads them) + 15
want=50

# --- the plan, twice ----------------------------------------------------
for run in 1 2; do
    rc=0
    "$C" --plan "$tmp/small.plan" --workers 2 --reps 2 >"$tmp/run$run.csv" 2>"$tmp/run$run.err" || rc=$?
    check "plan run $run exits 0" test "$rc" -eq 0
    [ "$rc" -eq 0 ] || head -5 "$tmp/run$run.err" >&2
done
csv=$tmp/run1.csv
rows=$(grep -v '^#' "$csv" | tail -n +2)

first_data=$(grep -vn '^#' "$csv" | head -1 | cut -d: -f1)
check "provenance lines come first" test "$(head -n $((first_data - 1)) "$csv" | grep -vc '^# [a-z0-9_]*: .')" -eq 0
check "header is the contract's" test "$(sed -n "${first_data}p" "$csv")" = "$header"
check "no comment lines after the header" test "$(tail -n +"$first_data" "$csv" | grep -c '^#')" -eq 0
for key in cpu_model workers online_cpus date timing harness harness_commit simd; do
    check "provenance has $key" grep -q "^# $key: ." "$csv"
done
check "harness is cpubench" grep -qx '# harness: cpubench' "$csv"
check "workers is 2" grep -qx '# workers: 2' "$csv"

check "one row per distinct configuration ($want)" test "$(printf '%s\n' "$rows" | grep -c .)" -eq "$want"
dry=$("$C" --plan "$tmp/small.plan" --reps 2 --dry-run | tail -n +2 | cut -d, -f1-9)
check "rows are --dry-run's configurations, in order" test "$(printf '%s\n' "$rows" | cut -d, -f1-9)" = "$dry"
check "every row has 13 fields" test -z "$(printf '%s\n' "$rows" | awk -F, 'NF != 13')"
check "every row's check is ok" test -z "$(printf '%s\n' "$rows" | awk -F, '$13 != "ok"')"
check "every row has 2 reps and 0 < min <= median <= max" test -z "$(printf '%s\n' "$rows" |
    awk -F, '$9 != 2 || !($11 > 0 && $11 <= $10 && $10 <= $12)')"
for p in store counter counter-aggregated compaction histogram histogram-shared \
         histogram-u8-cas histogram-u16-cas cas-append bitmask reduce distinct-lines; do
    check "pattern $p measured" grep -q "^$p," "$csv"
done
check "n stays within 2^12..2^14" test -z "$(printf '%s\n' "$rows" | awk -F, '$2 < 4096 || $2 > 16384')"
# vkbench's normalization, so CPU rows join GPU rows of the same plan
check "flags a pattern ignores are reset (store: bins 256, hot 0, addresses 1)" \
    grep -q '^store,16384,256,0.3,256,0,1,49152,' "$csv"
check "histogram keeps bins and hot" grep -q '^histogram,16384,256,1,3,0.5,1,49152,' "$csv"
check "histogram-shared's shared memory is at least 4 bytes a bin" grep -q '^histogram-shared,4096,256,1,256,0,1,1024,' "$csv"
check "reduce's shared memory is at least 4 bytes" grep -q '^reduce,4096,256,1,256,0,1,4,' "$csv"
check "distinct-lines keeps addresses" grep -q '^distinct-lines,10000,256,1,256,0,1024,0,' "$csv"
check "the same rows but for the times on a second run" \
    test "$(grep -v '^#' "$tmp/run1.csv" | cut -d, -f1-9,13)" = "$(grep -v '^#' "$tmp/run2.csv" | cut -d, -f1-9,13)"

# --- batches: interleaved (the default) or one at a time ---------------
# --batch-mib 0 times each configuration alone, back to back, and so does
# 1 MiB on a plan whose buffers take 1 MiB (store) and 2 MiB (compaction).
for mib in 0 1; do
    rc=0
    "$C" --plan "$tmp/small.plan" --workers 2 --reps 2 --batch-mib $mib >"$tmp/b$mib.csv" 2>"$tmp/b$mib.err" || rc=$?
    check "--batch-mib $mib exits 0" test "$rc" -eq 0
    check "--batch-mib $mib gives the same rows but for the times" \
        test "$(grep -v '^#' "$tmp/b$mib.csv" | cut -d, -f1-9,13)" = "$(grep -v '^#' "$tmp/run1.csv" | cut -d, -f1-9,13)"
done
printf -- '--pattern store,compaction,counter --n 2^18\n' >"$tmp/big.plan"
"$C" --plan "$tmp/big.plan" --workers 2 --reps 2 --batch-mib 1 >"$tmp/big.csv" 2>"$tmp/big.err"
check "--batch-mib 1 runs 1 MiB and 2 MiB buffers one at a time" \
    test "$(grep -o '(rows [0-9]*-[0-9]* timed together' "$tmp/big.err" | sort -u | tr -d '\n')" = \
    "(rows 1-1 timed together(rows 2-2 timed together(rows 3-3 timed together"
check "provenance names the batches" grep -q '^# timing: .*batches of up to 64 .* 1024 MiB' "$tmp/run1.csv"
check "the default times the small plan's rows together" \
    grep -q '(rows 1-50 timed together' "$tmp/run1.err"

# --- a plan on stdin, per-line --reps ------------------------------------
out=$(printf -- '--pattern reduce --n 2^13 --reps 3 --warmup 0\n' | "$C" --plan - --workers 2 2>/dev/null | tail -1)
check "a plan on stdin, with the line's --reps" test "$(echo "$out" | cut -d, -f1,2,9,13)" = "reduce,8192,3,ok"

# --- bad plans and options: exit 2, one line on stderr, nothing on stdout -
expect() {
    local name=$1 re=$2 got=0
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || got=$?
    if [ "$got" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq -- "$re" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name: exit $got, $(wc -l <"$tmp/err") stderr lines, $(wc -c <"$tmp/out") bytes on stdout"
        sed 's/^/       stderr: /' "$tmp/err" | head -3
    fi
}
bad_plan() {
    printf '%s\n' "# line 1" "$2" >"$tmp/bad.plan"
    expect "$1" "$3" "$C" --plan "$tmp/bad.plan" --workers 2 --reps 1
}
bad_plan "unknown flag" "--pattern counter --bogus 1" "bad\.plan:2: .*--bogus"
bad_plan "--n 010 (octal to C)" "--pattern counter --n 010" "bad\.plan:2: .*--n.*'010'"
bad_plan "--n 2^40 (out of range)" "--pattern counter --n 2^40" "bad\.plan:2: .*--n.*'2\^40'"
bad_plan "--selectivity nan" "--pattern counter --selectivity nan" "bad\.plan:2: .*--selectivity.*'nan'"
bad_plan "--selectivity inf" "--pattern counter --selectivity inf" "bad\.plan:2: .*--selectivity.*'inf'"
bad_plan "hex integer" "--pattern counter --n 0x100" "bad\.plan:2: .*'0x100'"
bad_plan "trailing junk" "--pattern counter --bins 12abc" "bad\.plan:2: .*'12abc'"
bad_plan "out of range --wg" "--pattern counter --wg 1025" "bad\.plan:2: .*--wg.*1024"
bad_plan "unknown pattern" "--pattern counterr" "bad\.plan:2: .*counterr"
bad_plan "no --pattern" "--n 4096" "bad\.plan:2: .*--pattern"
bad_plan "malformed list" "--pattern counter --n 4096,,8192" "bad\.plan:2: .*malformed"
bad_plan "stray word" "--pattern counter stray" "bad\.plan:2: .*stray"
bad_plan "flag without a value" "--pattern counter --n" "bad\.plan:2: .*--n needs a value"
expect "missing plan file" "cannot read plan .*nonexistent" "$C" --plan "$tmp/nonexistent.plan"
expect "plan is a directory" "cannot read plan .*directory" "$C" --plan "$tmp"
expect "--workers 0" "--workers" "$C" --plan "$tmp/small.plan" --workers 0
expect "--reps 2^40" "--reps" "$C" --plan "$tmp/small.plan" --reps 2^40
expect "--batch-mib -1" "--batch-mib" "$C" --plan "$tmp/small.plan" --batch-mib -1
expect "unknown option in plan mode" "--frobnicate" "$C" --plan "$tmp/small.plan" --frobnicate 1

finish cpubench_plan
