#!/usr/bin/env bash
# progress.sh - the progress line (util/progress.h) of every long command:
# sweep, study, validate, calibrate, check (its formula grid and --against
# sim) and export --engine sim.  With stderr piped or in a file there is
# no line; with ATOMSIM_PROGRESS=force, or stderr a terminal (`script`),
# the line says "atomsim CMD: N/M UNIT (P%), elapsed, time left" and the
# last thing on stderr clears it; --no-progress silences it on a terminal
# too, every one of those commands takes it and its --help says so; stdout
# is the same bytes with the line and without, and never holds it.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"
unset ATOMSIM_PROGRESS

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi

# a dataset calibrate's launch stage fits in a blink (store, n <= 65536)
{
    grep '^#' tests/golden/mini.csv
    echo "pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,reps,time_us_median,time_us_min,time_us_max,check"
    for n in 1024 4096 16384 65536; do echo "store,$n,256,0,256,0,1,0,9,3.5,3.4,3.6,ok"; done
} >"$tmp/tiny.csv"
printf '[study]\nversion = 1\nname = p\nconfigs = configs/h100.ini\n[grid]\npattern = histogram\nn = 2^10\nbins = 1..64:x2\n' >"$tmp/p.ini"

# NAME|UNIT|COMMAND: each long command, small enough for seconds; stdout is
# deterministic for each (calibrate is --quiet: its stage lines hold seconds)
cmds=(
    "sweep|rows|sweep --pattern histogram --n 2^10 --bins 1..64:x2 -j 2"
    "study|rows|study $tmp/p.ini --stdout -j 2"
    "validate|rows|validate --config configs/h100.ini --data tests/golden/mini.csv --max-events 2e5 -j 2"
    "calibrate|rows|calibrate --config configs/h100.ini --data $tmp/tiny.csv --out $tmp/cal.ini --keys launch.kernel_overhead_cycles --max-evals 3 -j 2 --quiet"
    "check|points|check --config configs/h100.ini --quick --no-data -j 2"
    "check|points|check --against sim --config configs/h100.ini --points 2 --max-events 1e5 -j 2"
    "export|simulator cells|export --engine sim --config configs/h100.ini --only counter --sim-max-n 2^10 --sim-wg 64 --sim-smem 0 -j 2 --output $tmp/x.json"
)

# run OUT ERR ENV... -- ARGS: one command, its exit status into OUT.rc
run() {
    local out=$1 err=$2
    shift 2
    local envs=()
    while [ "$1" != -- ]; do envs+=("$1"); shift; done
    shift
    local rc=0
    # shellcheck disable=SC2086 # ARGS are words
    env "${envs[@]}" "$A" $1 >"$out" 2>"$err" </dev/null || rc=$?
    echo "$rc" >"$out.rc"
}

i=0
for entry in "${cmds[@]}"; do
    IFS='|' read -r name unit args <<<"$entry"
    i=$((i + 1))
    label="$name $(echo "$args" | cut -d' ' -f2 | grep -- '^--' || true)"
    label=${label% }
    run "$tmp/$i.plain" "$tmp/$i.plain.err" X=1 -- "$args"
    run "$tmp/$i.force" "$tmp/$i.force.err" ATOMSIM_PROGRESS=force -- "$args"
    run "$tmp/$i.quiet" "$tmp/$i.quiet.err" ATOMSIM_PROGRESS=force -- "$args --no-progress"
    # the exit status is the command's own (check --against sim may find drift: 1)
    [ "$(cat "$tmp/$i.plain.rc")" -le 1 ] || bad "$label: exit $(cat "$tmp/$i.plain.rc"): $(head -2 "$tmp/$i.plain.err")"
    check_eval "progress: $label: piped stderr has no progress line" \
        "! grep -q \$'\\r' '$tmp/$i.plain.err' && ! grep -q '[0-9]/[0-9]* $unit' '$tmp/$i.plain.err'"
    tr '\r' '\n' <"$tmp/$i.force.err" >"$tmp/$i.lines"
    check_eval "progress: $label: forced, a line of N/M $unit with the time left" \
        "grep -Eq '^.\\[Katomsim $name: [0-9]+/[0-9]+ $unit \\([0-9]+%\\), [0-9][^,]*, (about .* left|time left unknown)\$' '$tmp/$i.lines'"
    total=$(grep -Eo "[0-9]+/[0-9]+ $unit" "$tmp/$i.lines" | tail -1)
    check_eval "progress: $label: the last count is the total ($total)" "[ '${total%%/*}' = \"\$(echo '${total#*/}' | cut -d' ' -f1)\" ]"
    # the line is cleared at the end: after the last \r comes ESC[K, and
    # no count (what stderr says after it starts on a clean line)
    awk 'BEGIN { RS = "\r" } { last = $0 } END { printf "%s", last }' "$tmp/$i.force.err" >"$tmp/$i.tail"
    check_eval "progress: $label: the final line is cleared" \
        "[ \"\$(head -c 3 '$tmp/$i.tail' | od -An -tx1 | tr -d ' ')\" = 1b5b4b ] && ! grep -Eq '[0-9]+/[0-9]+ $unit \\(' '$tmp/$i.tail'"
    check_eval "progress: $label: --no-progress silences the forced line" "! grep -q \$'\\r' '$tmp/$i.quiet.err'"
    check_eval "progress: $label: stdout is the same bytes with and without the line" \
        "cmp -s '$tmp/$i.plain' '$tmp/$i.force' && cmp -s '$tmp/$i.plain' '$tmp/$i.quiet' && ! grep -q \$'\\r' '$tmp/$i.force'"
done

# every long command takes --no-progress and its --help says so
for c in sweep study validate calibrate check "check --routing" "check --against sim" export; do
    # shellcheck disable=SC2086
    "$A" $c --help >"$tmp/help" 2>&1
    check_eval "progress: $c --help names --no-progress" "grep -q -- '--no-progress' '$tmp/help'"
done
rc=0
"$A" check --routing --no-progress --table tables/h100.json --gpu-data validate/truth/routing-6-h100.csv \
    --cpu-data validate/truth/routing-6-cpu-h100host-16core.csv >/dev/null 2>"$tmp/err" || rc=$?
check_eval "progress: check --routing takes --no-progress" "[ $rc = 0 ] && [ ! -s '$tmp/err' ]"
rc=0
"$A" sweep --pattern counter --no-progress --no-progress >/dev/null 2>"$tmp/err" || rc=$?
check_eval "progress: --no-progress given twice is refused like any flag" \
    "[ $rc = 2 ] && grep -q 'atomsim sweep: --no-progress is given twice' '$tmp/err'"
rc=0
"$A" run --no-progress >/dev/null 2>"$tmp/err" || rc=$?
check_eval "progress: run (one quick simulation) has no progress flag" "[ $rc = 2 ] && grep -q \"bad option '--no-progress'\" '$tmp/err'"

# a real terminal (util-linux script): the line without the environment, and
# --no-progress silences it there
if command -v script >/dev/null 2>&1; then
    S="$A sweep --pattern histogram --n 2^10 --bins 1..64:x2 -j 2"
    script -qec "$S >$tmp/tty.out" /dev/null >"$tmp/tty" 2>&1 </dev/null || true
    check_eval "progress: on a terminal, the sweep draws its line" "tr '\\r' '\\n' <'$tmp/tty' | grep -Eq 'atomsim sweep: 7/7 rows \\(100%\\)'"
    check_eval "progress: on a terminal, stdout is still the plain rows" "cmp -s '$tmp/tty.out' '$tmp/1.plain'"
    script -qec "$S --no-progress >$tmp/tty2.out" /dev/null >"$tmp/tty2" 2>&1 </dev/null || true
    check_eval "progress: on a terminal, --no-progress silences it" "! grep -q 'atomsim sweep' '$tmp/tty2' && cmp -s '$tmp/tty2.out' '$tmp/1.plain'"
    # stdout on the terminal too: each row clears the line first, so the
    # rows come out whole (the line drawn and cleared between them)
    script -qec "$A sweep --pattern histogram --n 2^16 --bins 1..2^16:x2 -j 1" /dev/null >"$tmp/tty3" 2>&1 </dev/null || true
    "$A" sweep --pattern histogram --n 2^16 --bins 1..2^16:x2 -j 1 >"$tmp/plain3" 2>/dev/null
    sed 's/\r$//' "$tmp/tty3" | sed -E 's/\r\x1b\[K(atomsim sweep: [^\r]*(left|unknown))?//g' >"$tmp/rows3"
    check_eval "progress: stdout and stderr on one terminal, the rows stay whole" "cmp -s '$tmp/rows3' '$tmp/plain3' && grep -q 'atomsim sweep: 0/17 rows' '$tmp/tty3'"
else
    echo "note: script (util-linux) is not installed; the terminal cases are not checked"
fi

finish "progress"
