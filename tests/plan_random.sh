#!/usr/bin/env bash
# plan_random.sh - `atomsim plan --random` is reproducible and stays inside
# what it promises: the same seed gives the same bytes, every pattern is
# dealt its share, every value lies in its range (the defaults' and
# narrowed ones), the plan and the CSV hold the same rows, vkbench reads
# the plan as those rows (when build/vkbench exists), and bad usage exits 2
# with one line on stderr.  ATOMSIM and VKBENCH may name the binaries.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
V=${VKBENCH:-build/vkbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
plan() { "$A" plan --random "$@"; }

# --- determinism ----------------------------------------------------------
plan --seed 7 --rows 120 >"$tmp/a.plan"
plan --seed 7 --rows 120 >"$tmp/b.plan"
plan --seed 8 --rows 120 >"$tmp/c.plan"
check "same seed, same bytes" cmp -s "$tmp/a.plan" "$tmp/b.plan"
check_eval "another seed, other rows" "! cmp -s <(grep -v '^#' $tmp/a.plan) <(grep -v '^#' $tmp/c.plan)"
plan --seed 7 --rows 120 --output "$tmp/o.plan"
check_eval "--output writes the rows stdout gets, and names itself" \
    "cmp -s <(grep -v '^#' $tmp/a.plan) <(grep -v '^#' $tmp/o.plan) && head -1 $tmp/o.plan | grep -q -- '--output $tmp/o.plan\$'"
check_eval "header names the command" "[ \"\$(head -1 $tmp/a.plan)\" = '# atomsim plan --random --seed 7 --rows 120' ]"

# --- counts and patterns --------------------------------------------------
check_eval "120 plan lines" "[ \$(grep -vc '^#' $tmp/a.plan) -eq 120 ]"
plan --seed 7 --rows 120 --format csv >"$tmp/a.csv"
check_eval "csv: header and 120 rows" \
    "[ \"\$(head -1 $tmp/a.csv)\" = pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg ] && [ \$(wc -l <$tmp/a.csv) -eq 121 ]"
check_eval "all 12 patterns, 10 rows each" \
    "[ \"\$(tail -n +2 $tmp/a.csv | cut -d, -f1 | sort | uniq -c | awk '\$1 == 10' | wc -l)\" -eq 12 ]"

# The plan's flags, back to CSV: the same rows in the same order.
to_csv() {
    grep -v '^#' "$1" | awk '{
        for (i = 1; i < NF; i += 2) v[$i] = $(i + 1)
        print v["--pattern"] "," v["--n"] "," v["--wg"] "," v["--selectivity"] "," v["--bins"] "," \
              v["--hot"] "," v["--addresses"] "," v["--smem-per-wg"]
    }'
}
check_eval "plan and csv hold the same rows" "cmp -s <(to_csv $tmp/a.plan) <(tail -n +2 $tmp/a.csv)"

# --- ranges ---------------------------------------------------------------
# in_range CSV NLO NHI WLO WHI MLO MHI BLO BHI CBLO CBHI ALO AHI: one line per
# value outside its range (so the check wants none).  Selectivity and hot
# ranges stay the defaults here (and are checked on their grids).
in_range() {
    tail -n +2 "$1" | awk -F, -v nlo="$2" -v nhi="$3" -v wlo="$4" -v whi="$5" -v mlo="$6" -v mhi="$7" \
        -v blo="$8" -v bhi="$9" -v cblo="${10}" -v cbhi="${11}" -v alo="${12}" -v ahi="${13}" '
    function bad(what) { print NR ": " what ": " $0 }
    {
        p = $1; sel = p ~ /^(store|counter|counter-aggregated|compaction|cas-append|bitmask)$/
        if ($2 < nlo || $2 > nhi) bad("n")
        if ($3 < wlo || $3 > whi || $3 % 32) bad("wg")
        # on the grid: at most 6 decimals, no trailing zero (mawk has no {m,n})
        if ($4 < 0 || $4 > 1 || $4 !~ /^(0|1|0\.[0-9]*[1-9])$/ || length($4) > 8 || (!sel && $4 != "1")) bad("selectivity")
        if (sel && $4 != 0 && $4 != 1 && $4 < 0.001) bad("selectivity below 0.001")
        if ($6 < 0 || $6 > 1 || $6 !~ /^(0|1|0\.[0-9]*[1-9])$/ || length($6) > 5 || (p != "histogram" && $6 != "0")) bad("hot")
        if (p == "histogram" && ($5 < blo || $5 > bhi)) bad("bins")
        else if (p == "histogram-shared" && ($5 < blo || $5 * 4 > mhi)) bad("bins")
        else if (p ~ /-cas$/ && p != "cas-append" && ($5 < cblo || $5 > cbhi)) bad("cas bins")
        else if (p !~ /^histogram/ && $5 != 256) bad("bins default")
        if (p == "distinct-lines" ? ($7 < alo || $7 > ahi) : $7 != 1) bad("addresses")
        own = p == "histogram-shared" ? 4 * $5 : p == "reduce" ? 4 : 0
        if ($8 < mlo || $8 > mhi || ($8 != mlo && $8 % 1024 && $8 != own) || $8 < own) bad("smem")
    }'
}
check_eval "default ranges hold" "[ -z \"\$(in_range $tmp/a.csv 1024 16777216 32 1024 0 49152 1 4194304 1 65536 1 4194304)\" ]"
plan --seed 11 --rows 2400 --format csv >"$tmp/big.csv"
check_eval "default ranges hold over 2400 rows" \
    "[ -z \"\$(in_range $tmp/big.csv 1024 16777216 32 1024 0 49152 1 4194304 1 65536 1 4194304)\" ]"
check_eval "half the n are powers of two" \
    "[ \$(tail -n +2 $tmp/big.csv | awk -F, '{ n = \$2; while (n % 2 == 0) n /= 2; p += n == 1 } END { print p }') -eq 1200 ]"
check_eval "workgroup sizes between the powers of two occur (96, 192, 640)" \
    "[ \$(cut -d, -f3 $tmp/big.csv | grep -cxE '96|192|640') -gt 0 ]"
check_eval "selectivity 0 and 1 both occur, hot 0 and not 0 both occur" \
    "awk -F, 'NR > 1 && \$1 == \"bitmask\" { z += \$4 == \"0\"; o += \$4 == \"1\" } \$1 == \"histogram\" { h0 += \$6 == \"0\"; h += \$6 != \"0\" } END { exit !(z && o && h0 && h) }' $tmp/big.csv"

narrow=(--n-range 5000..2^13 --wg-range 64..200 --smem-range 2048..8192 --bins-range 3..900
        --cas-bins-range 2^10..2^12 --addresses-range 7..70 --selectivity-range 0.25..0.5 --hot-range 0.1..0.2)
plan --seed 3 --rows 600 --format csv "${narrow[@]}" >"$tmp/n.csv"
check_eval "narrowed integer ranges hold" "[ -z \"\$(in_range $tmp/n.csv 5000 8192 64 200 2048 8192 3 900 1024 4096 7 70)\" ]"
check_eval "narrowed fraction ranges hold" \
    "awk -F, 'NR > 1 && \$1 ~ /^(store|bitmask|cas-append)\$/ && (\$4 < 0.25 || \$4 > 0.5) { exit 1 }
              NR > 1 && \$1 == \"histogram\" && (\$6 < 0.1 || \$6 > 0.2) { exit 1 }' $tmp/n.csv"
plan --seed 3 --rows 50 --format csv --patterns reduce,histogram-shared >"$tmp/p.csv"
check_eval "--patterns restricts, 25 rows each" \
    "[ \"\$(tail -n +2 $tmp/p.csv | cut -d, -f1 | sort | uniq -c | awk '{ print \$1 \$2 }' | tr '\n' ' ')\" = '25histogram-shared 25reduce ' ]"

# --- vkbench reads the plan as the same rows --------------------------------
if [ -x "$V" ]; then
    rc=0
    "$V" --plan "$tmp/a.plan" --dry-run >"$tmp/dry.csv" 2>"$tmp/dry.err" || rc=$?
    check_eval "vkbench --dry-run accepts the plan" "[ $rc -eq 0 ]"
    check_eval "vkbench reads the csv's rows" "cmp -s <(cut -d, -f1-8 $tmp/dry.csv) $tmp/a.csv"
    rc=0
    "$V" --plan <(plan --seed 3 --rows 600 "${narrow[@]}") --dry-run >/dev/null 2>&1 || rc=$?
    check_eval "vkbench accepts a narrowed plan" "[ $rc -eq 0 ]"
else
    echo "skip vkbench dry run: $V is not built"
fi

# --- errors: exit 2, one line on stderr, nothing on stdout -------------------
expect2() {
    local name=$1 re=$2 got=0
    shift 2
    "$A" plan "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || got=$?
    if [ "$got" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq -- "$re" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name: exit $got, stderr: $(head -c 300 "$tmp/err")"
    fi
}
r=(--random --seed 1 --rows 5)
expect2 "seed 0" "--seed" --random --seed 0 --rows 5
expect2 "seed junk" "--seed" --random --seed 12ab --rows 5
expect2 "seed above 32 bits" "--seed" --random --seed 4294967296 --rows 5
expect2 "rows 0" "--rows" --random --seed 1 --rows 0
expect2 "rows above a million" "--rows" --random --seed 1 --rows 1000001
expect2 "rows in hex" "--rows" --random --seed 1 --rows 0x10
expect2 "missing --seed" "--seed" --random --rows 5
expect2 "missing --random" "--random" --seed 1 --rows 5
expect2 "LO above HI" "--n-range" "${r[@]}" --n-range 2^24..2^10
expect2 "range outside the domain" "--n-range" "${r[@]}" --n-range 0..100
expect2 "octal in a range" "--wg-range" "${r[@]}" --wg-range 040..1024
expect2 "hex in a range" "--bins-range" "${r[@]}" --bins-range 0x10..100
expect2 "range junk" "--smem-range" "${r[@]}" --smem-range lots
expect2 "range without .." "--addresses-range" "${r[@]}" --addresses-range 5
expect2 "selectivity off its grid" "--selectivity-range" "${r[@]}" --selectivity-range 0.0000001..1
expect2 "hot above 1" "--hot-range" "${r[@]}" --hot-range 0..1.5
expect2 "no multiple of 32" "--wg-range" "${r[@]}" --wg-range 100..120
expect2 "no room for histogram-shared" "histogram-shared" "${r[@]}" --smem-range 0..1024 --bins-range 300..400
expect2 "unknown pattern" "nope" "${r[@]}" --patterns counter,nope
expect2 "unknown option" "--bogus" "${r[@]}" --bogus
expect2 "unknown format" "xml" "${r[@]}" --format xml
expect2 "unwritable output" "$tmp/none/x" "${r[@]}" --output "$tmp/none/x"
expect2 "stray argument" "stray" "${r[@]}" stray

# --max-cas-contenders is taken (it was once overwritten in the option
# array and refused as unknown) and tightens the guard on CAS rows
got=0
"$A" plan --random --seed 3 --rows 40 --patterns cas-append,histogram-u8-cas --max-cas-contenders 64 >"$tmp/cas64.plan" 2>"$tmp/err" || got=$?
"$A" plan --random --seed 3 --rows 40 --patterns cas-append,histogram-u8-cas >"$tmp/casdef.plan" 2>/dev/null
check_eval "--max-cas-contenders is accepted (exit $got) and changes the draw" \
    "[ $got -eq 0 ] && [ ! -s $tmp/err ] && ! cmp -s <(grep -v '^#' $tmp/cas64.plan) <(grep -v '^#' $tmp/casdef.plan)"
expect2 "a zero contender bound" "max-cas-contenders" "${r[@]}" --max-cas-contenders 0

got=0
"$A" plan "${r[@]}" >/dev/full 2>"$tmp/err" || got=$?
check_eval "a full disk fails with a message" "[ $got -ne 0 ] && grep -q 'No space' $tmp/err"
"$A" plan --help >"$tmp/help" 2>&1
check_eval "--help names every flag and default" \
    "( for w in --random --seed --rows --patterns --format --output 2^10..2^24 32..1024 0..49152 0..1 1..2^22 1..2^16; do grep -q -- \"\$w\" $tmp/help || exit 1; done )"

finish plan_random
