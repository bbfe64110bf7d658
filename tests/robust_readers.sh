#!/usr/bin/env bash
# robust_readers.sh - the file readers refuse what is not their input, in
# one line naming the file (and line), exit 2, at once: a device or a
# directory (/dev/zero once looped forever, a directory read as an empty
# split or CPU config), a NUL byte, a line too long for the reader (once
# cut in two, its tail read as a key or a row), and numbers that are not
# the column's (once cast before their range check, so -5 wrapped).  Each
# check is named after the audit item it covers (issue 24, readers).
# Inputs valid before still read the same: see golden.sh,
# validate_regression.sh and data_manifest.sh.  ATOMSIM, CPUBENCH and
# VKBENCH may name the binaries.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
CPB=${CPUBENCH:-build/cpubench}
VKB=${VKBENCH:-build/vkbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

# expect NAME REGEX COMMAND...: exit 2, one stderr line matching REGEX.
# timeout: a reader that loops fails the check instead of hanging the suite.
expect() {
    local name=$1 re=$2 rc=0
    shift 2
    timeout 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
    if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq -- "$re" "$tmp/err"; then
        ok "$name"
    else
        bad "$name: exit $rc (want 2), stderr: $(head -c 300 "$tmp/err")"
    fi
}

C=(--config configs/h100.ini)
H=pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,reps,time_us_median,time_us_min,time_us_max,check
GOOD=counter,4096,256,1,256,0,1,0,9,6.6,6.6,6.7,ok

# --- 1: a non-regular file is refused, never read forever ------------------
expect "1 study /dev/zero" "/dev/zero: not a regular file" "$A" study /dev/zero
expect "1 sweep --points /dev/zero" "/dev/zero: not a regular file" "$A" sweep "${C[@]}" --pattern counter --points /dev/zero
expect "1 export --cpu /dev/zero" "/dev/zero: not a regular file" "$A" export "${C[@]}" --cpu /dev/zero
expect "1 check --cpu /dev/zero" "/dev/zero: not a regular file" "$A" check --cpu /dev/zero
printf '%s\n%s\n' "$H" "$GOOD" >"$tmp/good.csv"
expect "1 validate --split /dev/zero" "/dev/zero: not a regular file" \
    "$A" validate "${C[@]}" --engine model --data "$tmp/good.csv" --split /dev/zero --rows fit
expect "1 validate --data /dev/zero" "/dev/zero: not a regular file" "$A" validate "${C[@]}" --data /dev/zero
expect "1 check --data /dev/zero" "/dev/zero: not a regular file" "$A" check --data /dev/zero
"$A" export "${C[@]}" --only counter >"$tmp/t.json" 2>/dev/null
expect "1 dispatch --batch /dev/zero" "not a regular file" "$A" dispatch --table "$tmp/t.json" --batch /dev/zero
PS=(--engine sim "${C[@]}" --only counter --sim-max-n 2^10 --sim-wg 64 --sim-smem 0 --no-progress)
expect "1 export --merge /dev/zero" "/dev/zero: not a regular file" "$A" export "${PS[@]}" --merge /dev/zero
if [ -x "$CPB" ]; then
    expect "1 cpubench --plan /dev/zero" "cannot read plan /dev/zero: not a regular file" "$CPB" --plan /dev/zero --dry-run
    expect "1 cpubench --from-csv /dev/zero" "/dev/zero: not a regular file" "$CPB" --from-csv /dev/zero --ini "$tmp/x.ini"
fi
if [ -x "$VKB" ]; then
    expect "1 vkbench --plan /dev/zero" "cannot read plan /dev/zero: not a regular file" "$VKB" --plan /dev/zero --dry-run
fi

# --- 2: a directory is an error, not an empty file --------------------------
expect "2 validate --split DIR" "$tmp: not a regular file" \
    "$A" validate "${C[@]}" --engine model --data "$tmp/good.csv" --split "$tmp" --rows fit
expect "2 export --cpu DIR" "$tmp: not a regular file" "$A" export "${C[@]}" --cpu "$tmp"
expect "2 export --merge DIR" "$tmp: not a regular file" "$A" export "${PS[@]}" --merge "$tmp"

# --- 3: dataset fields range-checked before their cast, file:line named ------
row() { printf '%s\n%s\n' "$H" "$1" >"$tmp/d.csv"; }
row counter,1048576,256,1,256,0,1,-5,9,6.6,6.6,6.7,ok
expect "3 dataset smem_per_wg=-5" "d\.csv:2: smem_per_wg '-5' is not an integer" "$A" validate "${C[@]}" --data "$tmp/d.csv"
row counter,4096.7,256,1,256,0,1,0,9,6.6,6.6,6.7,ok
expect "3 dataset n=4096.7" "d\.csv:2: n '4096\.7' is not an integer" "$A" validate "${C[@]}" --data "$tmp/d.csv"
row counter,4096,256,1,256,0,1,0,-7,6.6,6.6,6.7,ok
expect "3 dataset reps=-7" "d\.csv:2: reps '-7'" "$A" validate "${C[@]}" --data "$tmp/d.csv"
row counter,4096,256,1,256,0,1,0,9,6.6,-inf,6.7,ok
expect "3 dataset time_us_min=-inf" "d\.csv:2: time_us_min '-inf'" "$A" validate "${C[@]}" --data "$tmp/d.csv"
row counter,4096,256,1,256,0,1,0,9,6.6,6.6,nan,ok
expect "3 dataset time_us_max=nan" "d\.csv:2: time_us_max 'nan'" "$A" validate "${C[@]}" --data "$tmp/d.csv"
row counter,4096,256,2,256,0,1,0,9,6.6,6.6,6.7,ok
expect "3 dataset selectivity=2 (the table's bounds)" "d\.csv:2: selectivity '2' is not a number in \[0, 1\]" \
    "$A" validate "${C[@]}" --data "$tmp/d.csv"
row counter,4096,256,1,0x10,0,1,0,9,6.6,6.6,6.7,ok
expect "3 dataset bins=0x10 (base 10 only)" "d\.csv:2: bins '0x10'" "$A" validate "${C[@]}" --data "$tmp/d.csv"
printf '%s\n%s\0,junk\n' "$H" "$GOOD" >"$tmp/d.csv"
expect "3 dataset text after a NUL byte" "d\.csv:2: NUL byte" "$A" validate "${C[@]}" --data "$tmp/d.csv"
"$A" validate "${C[@]}" --engine model --data "$tmp/good.csv" >"$tmp/out" 2>"$tmp/err"
check_eval "3 a good dataset row still scores" "[ \$? -eq 0 ] && grep -Eq '^overall +1 +1 ' $tmp/out"

# --- 4: a long line is refused or read whole, never split -------------------
{
    printf '[study]\nversion = 1\nname = x\nquestion = %s bins = 3\n' "$(printf 'q%.0s' $(seq 190))"
    printf '[grid]\npattern = counter\nn = 1024\n'
} >"$tmp/long.ini"
expect "4 study line over 199 characters" "long\.ini:4: line longer than 199 characters" "$A" study "$tmp/long.ini" --count
# a 1,022-character comment whose tail, past fgets' old 1,024-byte buffer,
# is a row of its own: it once scored as a phantom row
{
    printf '%s\n#%s' "$H" "$(printf 'x%.0s' $(seq 1022))"
    printf 'store,1048576,256,0,256,0,1,0,9,6.656,6.656,6.688,ok\n%s\n' "$GOOD"
} >"$tmp/comment.csv"
"$A" validate "${C[@]}" --engine model --data "$tmp/comment.csv" >"$tmp/out" 2>"$tmp/err"
check_eval "4 dataset comment over 1,023 characters adds no row" \
    "grep -Eq '^overall +1 +1 ' $tmp/out && ! grep -q '^store' $tmp/out"
{
    printf '#%s\n' "$(printf 'x%.0s' $(seq 5000))"
    printf '%s\n%s\n' "$H" "$GOOD"
} >"$tmp/huge.csv"
expect "4 dataset line over 4096 bytes names file:line" "huge\.csv:1: line longer than" \
    "$A" validate "${C[@]}" --data "$tmp/huge.csv"

# --- 5: split, points, batch, part, plan, CPU config ------------------------
printf 'test counter n=4096\ntest counter bins=1\0,2\n' >"$tmp/nul.split"
expect "5 split: NUL byte" "nul\.split:2: NUL byte" \
    "$A" validate "${C[@]}" --engine model --data "$tmp/good.csv" --split "$tmp/nul.split" --rows fit
printf 'test counter bins=0x10\n' >"$tmp/hex.split"
expect "5 split: a hex value" "hex\.split:1: '0x10' is not an integer" \
    "$A" validate "${C[@]}" --engine model --data "$tmp/good.csv" --split "$tmp/hex.split" --rows fit
printf 'test counter wg=-5\n' >"$tmp/neg.split"
expect "5 split: a value outside the parameter's bounds" "neg\.split:1: " \
    "$A" validate "${C[@]}" --engine model --data "$tmp/good.csv" --split "$tmp/neg.split" --rows fit
printf 'pattern,n\ncounter,4096\0,5\n' >"$tmp/nul.points"
expect "5 points: NUL byte" "nul\.points:2: NUL byte" "$A" sweep "${C[@]}" --points "$tmp/nul.points"
{ printf 'pattern,n\n#%s\ncounter,4096\n' "$(printf 'x%.0s' $(seq 5000))"; } >"$tmp/long.points"
expect "5 points: long line" "long\.points:2: line longer than" "$A" sweep "${C[@]}" --points "$tmp/long.points"
printf 'pattern,n\ncounter,2048\0junk\n' >"$tmp/nul.batch"
expect "5 batch: NUL byte" "nul\.batch:2: NUL byte" "$A" dispatch --table "$tmp/t.json" --batch "$tmp/nul.batch"
"$A" export "${PS[@]}" --shard 1/1 --output "$tmp/part.csv" 2>/dev/null
# the first cell's row with its gpu time negative, then with wg past an int
awk -F, -v OFS=, 'NR == 6 { $11 = "-5" } { print }' "$tmp/part.csv" >"$tmp/neg.part"
expect "5 part: a negative time" "neg\.part line 6: not a cell" "$A" export "${PS[@]}" --merge "$tmp/neg.part"
awk -F, -v OFS=, 'NR == 6 { $4 = "4294967360" } { print }' "$tmp/part.csv" >"$tmp/wide.part"
expect "5 part: wg past an int (no wrap to 64)" "wide\.part line 6: not a cell" "$A" export "${PS[@]}" --merge "$tmp/wide.part"
{ head -5 "$tmp/part.csv"; printf '%s\0\n' "$(sed -n 6p "$tmp/part.csv")"; tail -n +7 "$tmp/part.csv"; } >"$tmp/nul.part"
expect "5 part: NUL byte" "nul\.part:6: NUL byte" "$A" export "${PS[@]}" --merge "$tmp/nul.part"
printf '[cpu]\nworkers = 8\0\n' >"$tmp/nul.ini"
expect "5 cpu config: NUL byte" "nul\.ini:2: NUL byte" "$A" check --cpu "$tmp/nul.ini"
printf '[source]\nname = %s\n' "$(printf 'n%.0s' $(seq 300))" >"$tmp/long-cpu.ini"
expect "5 cpu config: long line" "long-cpu\.ini:2: line longer than" "$A" check --cpu "$tmp/long-cpu.ini"
if [ -x "$CPB" ]; then
    printf -- '--pattern counter\0 --n 2^40\n' >"$tmp/nul.plan"
    expect "5 cpubench plan: NUL byte" "nul\.plan:1: NUL byte" "$CPB" --plan "$tmp/nul.plan" --dry-run
    printf 'measure,workers,n,bins,selectivity,reps,time_us_median,time_us_min,time_us_max,ns_per_element_worker\n' >"$tmp/c.csv"
    printf 'pool_dispatch,-2,0,0,0,200,60.1,43.6,3949.1,0.0\n' >>"$tmp/c.csv"
    expect "5 cpubench --from-csv: a row out of range" "c\.csv:2: not a row" "$CPB" --from-csv "$tmp/c.csv" --ini "$tmp/x.ini"
fi
for H_ in "$CPB" "$VKB"; do
    [ -x "$H_" ] || continue
    "$H_" --plan <(printf -- '--pattern counter --n 1024,2048\n') --dry-run >"$tmp/out" 2>/dev/null
    check_eval "5 $(basename "$H_") still reads a plan from a pipe" "[ \$? -eq 0 ] && [ \$(grep -c '^counter,' $tmp/out) -eq 2 ]"
done
if [ -x "$VKB" ]; then
    expect "5 vkbench plan: NUL byte" "nul\.plan:1: NUL byte" "$VKB" --plan "$tmp/nul.plan" --dry-run
fi

finish robust_readers
