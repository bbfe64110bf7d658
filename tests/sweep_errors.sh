#!/usr/bin/env bash
# sweep_errors.sh - bad input to `atomsim sweep` and `atomsim study` fails
# as the CLI contract says: one line on stderr naming the culprit, nothing on
# stdout, exit 2 (unknown key, malformed range, empty grid, shard k outside
# 1..N, bad study files); a failed row exits 1 with one line naming the point;
# --keep-going reports each failed row and goes on; the progress line shows
# only when stderr is a terminal.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# expect NAME STATUS REGEX STDOUT_EMPTY COMMAND...
expect() {
    local name=$1 want=$2 re=$3 empty=$4 got=0
    shift 4
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || got=$?
    local lines
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -Eq -- "$re" "$tmp/err" && { [ "$empty" = 0 ] || [ ! -s "$tmp/out" ]; }; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $got (want $want), $lines stderr lines (want 1 matching /$re/), $(wc -c <"$tmp/out") bytes on stdout"
        sed 's/^/       stderr: /' "$tmp/err" | head -3
    fi
}
sw() { "$A" sweep --pattern histogram --n 1024 "$@"; }

expect "unknown --vary key" 2 "unknown key 'foo'" 1 sw --vary foo=1,2
expect "unknown config key" 2 "unknown key 'l2.nope'" 1 sw --vary l2.nope=1
expect "--vary without =" 2 "expected KEY=VALUES" 1 sw --vary bins
expect "malformed range" 2 "malformed range" 1 sw --bins 1..x
expect "malformed step" 2 "malformed step" 1 sw --bins 1..8:y2
expect "geometric factor 1" 2 "factor > 1" 1 sw --bins 1..8:x1
expect "empty range" 2 "empty range" 1 sw --bins 8..1
expect "empty value list" 2 "no values" 1 sw --vary bins=
expect "empty list element" 2 "empty value" 1 sw --bins 1,,2
expect "value out of range" 2 "selectivity" 1 sw --selectivity 0..2:+0.5
expect "config value out of range" 2 "l2.slice_count" 1 sw --vary l2.slice_count=0,40
expect "enum value" 2 "l2.slice_hash" 1 sw --vary l2.slice_hash=mod,nope
expect "shard k = 0" 2 "--shard '0/3'" 1 sw --shard 0/3
expect "shard k > N" 2 "--shard '4/3'" 1 sw --shard 4/3
expect "shard N = 0" 2 "--shard" 1 sw --shard 1/0
expect "shard not k/N" 2 "expected K/N" 1 sw --shard 3
expect "key given twice" 2 "given twice" 1 sw --bins 1 --vary bins=2
expect "no pattern" 2 "no pattern" 1 "$A" sweep --bins 1,2
expect "bad -j" 2 "-j '0'" 1 sw -j 0
expect "unexpected argument" 2 "unexpected argument 'extra'" 1 sw extra
expect "study option on sweep" 2 "study option" 1 sw --out-dir x
expect "missing config" 2 "nope.ini" 1 sw --config nope.ini
expect "missing points" 2 "cannot open points" 1 "$A" sweep --points nope.csv
printf 'n,bins\n1024,2\n' >"$tmp/nopattern.csv"
expect "points without pattern" 2 "no 'pattern' column" 1 "$A" sweep --points "$tmp/nopattern.csv"
expect "unknown pattern" 2 "unknown pattern 'nope'" 1 "$A" sweep --pattern histogram,nope

# a failed row: the rows before it, then one line naming the point, exit 1
sb() { "$A" sweep --pattern histogram "$@"; }
expect "row over the event budget" 1 "histogram n=65536 .*event budget" 0 \
    sb --n 1024,2^16 -p sim.max_events=300 -j 1
expect "row over the event budget, -j 2" 1 "histogram n=65536 .*event budget" 0 \
    sb --n 1024,2^16,2048 -p sim.max_events=300 -j 2
sb --n 1024,2^16,2048 -p sim.max_events=300 -j 2 2>/dev/null | tail -n +2 | cut -d, -f2 >"$tmp/b"
[ "$(cat "$tmp/b")" = 1024 ] && pass=$((pass + 1)) || { fail=$((fail + 1)); echo "FAIL rows before a failed row: $(tr '\n' ' ' <"$tmp/b")"; }
# --keep-going: each failed row reported, the others written, exit 1
rc=0
sb --n 1024,2^16,2048 -p sim.max_events=300 --keep-going -j 2 >"$tmp/out" 2>"$tmp/err" || rc=$?
if [ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" -ge 1 ] && [ "$(wc -l <"$tmp/err")" -le 2 ] &&
    [ $(($(wc -l <"$tmp/out") - 1 + $(wc -l <"$tmp/err"))) = 3 ]; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL --keep-going: exit $rc, $(wc -l <"$tmp/out") stdout lines, $(wc -l <"$tmp/err") stderr lines"; fi

# study files
mk() { printf '%b' "$2" >"$tmp/$1.ini"; }
mk ok '[study]\nversion = 1\n[grid]\npattern = counter\nn = 1024\n[outputs]\ncsv = ok.csv\n'
mk noversion '[grid]\npattern = counter\n'
mk newer '[study]\nversion = 2\n[grid]\npattern = counter\n'
mk section '[study]\nversion = 1\n[grids]\npattern = counter\n'
mk studykey '[study]\nversion = 1\ncolour = red\n[grid]\npattern = counter\n'
mk gridkey '[study]\nversion = 1\n[grid]\npattern = counter\nbinz = 2\n'
mk twice '[study]\nversion = 1\n[grid]\npattern = counter\npattern = store\n'
mk nogrid '[study]\nversion = 1\n'
mk output '[study]\nversion = 1\n[grid]\npattern = counter\n[outputs]\npng = x.png\n'
mk range '[study]\nversion = 1\n[grid]\npattern = counter\nn = 2^10..2^8:x2\n'
expect "study: missing file" 2 "cannot open study" 1 "$A" study "$tmp/nope.ini"
expect "study: no file" 2 "which study" 1 "$A" study
expect "study: no version" 2 "version is missing" 1 "$A" study "$tmp/noversion.ini" --stdout
expect "study: newer version" 2 "newer than this atomsim" 1 "$A" study "$tmp/newer.ini" --stdout
expect "study: unknown section" 2 "unknown section \\[grids\\]" 1 "$A" study "$tmp/section.ini" --stdout
expect "study: unknown [study] key" 2 "section.ini|studykey.ini:3: unknown key 'colour'" 1 "$A" study "$tmp/studykey.ini" --stdout
expect "study: unknown grid key" 2 "gridkey.ini:5: unknown key 'binz'" 1 "$A" study "$tmp/gridkey.ini" --stdout
expect "study: key twice" 2 "appears twice" 1 "$A" study "$tmp/twice.ini" --stdout
expect "study: no grid" 2 "no \\[grid\\]" 1 "$A" study "$tmp/nogrid.ini" --stdout
expect "study: unknown output" 2 "unknown output 'png'" 1 "$A" study "$tmp/output.ini" --stdout
expect "study: empty range" 2 "range.ini:5: n: empty range" 1 "$A" study "$tmp/range.ini" --stdout
expect "study: --format without --stdout" 2 "goes with --stdout" 1 "$A" study "$tmp/ok.ini" --format json
expect "study: two files" 2 "unexpected argument" 1 "$A" study "$tmp/ok.ini" "$tmp/ok.ini"
# a clean study writes its output and nothing on stderr or stdout
if "$A" study "$tmp/ok.ini" --out-dir "$tmp/o" >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] && [ ! -s "$tmp/out" ] &&
    [ "$(wc -l <"$tmp/o/ok.csv")" = 2 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL clean study"; fi
# a failed study leaves no half-written output behind
mk budget '[study]\nversion = 1\n[grid]\npattern = histogram\nn = 2^14\nbins = 1, 2\n[overrides]\nsim.max_events = 300\n[outputs]\ncsv = budget.csv\n'
expect "study: failed row" 1 "event budget" 1 "$A" study "$tmp/budget.ini" --out-dir "$tmp/o"
if [ -e "$tmp/o/budget.csv" ] || ls "$tmp/o" | grep -q tmp; then fail=$((fail + 1)); echo "FAIL a failed study left output"; else pass=$((pass + 1)); fi

# the progress line: on a terminal only
if command -v script >/dev/null 2>&1; then
    script -qec "$A sweep --pattern histogram --n 1024 --bins 1,2 -j 1 >/dev/null" /dev/null >"$tmp/tty" 2>&1 || true
    if grep -q "2/2 rows" "$tmp/tty"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL no progress line on a terminal"; fi
fi
"$A" sweep --pattern histogram --n 1024 --bins 1,2 >/dev/null 2>"$tmp/err"
if [ ! -s "$tmp/err" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL progress written to a non-terminal"; fi

echo "sweep/study errors: $pass passed, $fail failed"
[ $fail = 0 ]
