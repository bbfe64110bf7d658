#!/usr/bin/env bash
# check_against_sim.sh - `atomsim check --against sim` on a tiny draw: the
# table has its header, one line per chosen pattern and an `all` line; the
# output is the same bytes with -j 1 and -j 2; breaking only the model (a
# model.* key, which the simulator never reads) leaves the simulator's
# times alone, moves the model's and makes the check fail; bad usage exits
# 2 with one line on stderr and nothing on stdout.  A few seconds; the full
# run is `make model-vs-sim`.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
chk() { "$A" check --against sim --config configs/h100.ini --seed 5 --max-events 2e6 "$@"; }

# --- the table, and determinism across -j ------------------------------------
S="--points 24 --only counter,store,histogram"
st1=0
chk $S -j 1 --rows-out "$tmp/rows1.csv" >"$tmp/j1.txt" 2>"$tmp/j1.err" || st1=$?
st2=0
chk $S -j 2 --rows-out "$tmp/rows2.csv" >"$tmp/j2.txt" 2>"$tmp/j2.err" || st2=$?
check_eval "exit 0 or 1 (goals met or missed), nothing on stderr" \
    "[ $st1 -le 1 ] && [ $st1 -eq $st2 ] && [ ! -s $tmp/j1.err ] && [ ! -s $tmp/j2.err ]"
check_eval "header names the config, seed, points and goals" \
    "head -1 $tmp/j1.txt | grep -q '^atomsim check --against sim: configs/h100.ini (hash [0-9a-f]*), seed 5, 24 points over 3 patterns' &&
     grep -q 'goals: median <= 5%, p90 <= 15%' $tmp/j1.txt"
check_eval "one line per pattern (8 rows each) and an all line" \
    "for p in store counter histogram; do grep -Eq \"^\$p +8 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+  (met|MISSED|not scored)\" $tmp/j1.txt || exit 1; done &&
     grep -Eq '^all +24 ' $tmp/j1.txt"
check_eval "the verdict line counts the misses, and the exit status agrees" \
    "grep -Eq '^[0-9]+ of 3 patterns? miss' $tmp/j1.txt && { [ $st1 -eq 0 ] && grep -q '^0 of 3' $tmp/j1.txt || [ $st1 -eq 1 ]; }"
check "-j 1 and -j 2 give the same bytes" cmp -s "$tmp/j1.txt" "$tmp/j2.txt"
check "and the same rows" cmp -s "$tmp/rows1.csv" "$tmp/rows2.csv"
check_eval "--rows-out: header and 24 rows" \
    "head -1 $tmp/rows1.csv | grep -q '^pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,sim_us,model_us,error,status\$' &&
     [ \$(tail -n +2 $tmp/rows1.csv | wc -l) -eq 24 ]"
chk $S -j 2 --format csv >"$tmp/c.csv" 2>/dev/null
check_eval "csv: header, 3 patterns and all" \
    "head -1 $tmp/c.csv | grep -q '^pattern,rows,unfinished,failed,scored,median,p90,goals,worst\$' && [ \$(wc -l <$tmp/c.csv) -eq 5 ]"
chk --points 24 --only counter,store,histogram -j 2 --seed 6 >"$tmp/s6.txt" 2>/dev/null
check_eval "another seed, other points" "! cmp -s $tmp/j1.txt $tmp/s6.txt"

# --- a broken model fails the check ------------------------------------------
# model.cas_saving_knee_lanes is read by the model's cas-append race and by
# nothing in the simulator: at 1 racer, every race over SMs saves most of its
# attempts, and only the model's times move.
B="--points 6 --only cas-append -j 2"
chk $B --rows-out "$tmp/base.csv" >"$tmp/base.txt" 2>/dev/null
chk --points 6 --only cas-append -j 1 >"$tmp/base1.txt" 2>/dev/null
check_eval "rows over the event budget: counted, and the same with -j 1" \
    "grep -q ',unfinished\$' $tmp/base.csv && grep -Eq '^cas-append +6 +[1-6] ' $tmp/base.txt && cmp -s $tmp/base.txt $tmp/base1.txt"
stb=0
chk $B -p model.cas_saving_knee_lanes=1 --rows-out "$tmp/broken.csv" >"$tmp/broken.txt" 2>"$tmp/broken.err" || stb=$?
check_eval "broken model: exit 1 and cas-append MISSED" \
    "[ $stb -eq 1 ] && grep -Eq '^cas-append .* MISSED ' $tmp/broken.txt && grep -q '^1 of 1 pattern misses a goal: cas-append' $tmp/broken.txt"
check_eval "broken model: some rows scored, the simulator's times unchanged, the model's moved" \
    "grep -q ',scored\$' $tmp/broken.csv && cmp -s <(cut -d, -f1-9,12 $tmp/base.csv) <(cut -d, -f1-9,12 $tmp/broken.csv) &&
     ! cmp -s <(cut -d, -f10 $tmp/base.csv) <(cut -d, -f10 $tmp/broken.csv)"

# --- bad usage -----------------------------------------------------------------
# usage NAME REGEX ARGS...: exit 2, one stderr line matching REGEX, empty stdout.
usage() {
    local name=$1 re=$2 got=0
    shift 2
    "$A" check "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || got=$?
    if [ "$got" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq -- "$re" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name: exit $got, $(wc -l <"$tmp/err") stderr lines (want 1 matching /$re/), $(wc -c <"$tmp/out") bytes on stdout"
        sed 's/^/       stderr: /' "$tmp/err" | head -3
    fi
}
C="--config configs/h100.ini"
usage "--against other" "--against 'gpu'" --against gpu $C
usage "no --config" "needs --config" --against sim
usage "--points 0" "--points '0'" --against sim $C --points 0
usage "--seed 0" "--seed '0'" --against sim $C --seed 0
usage "-j 0" "-j '0'" --against sim $C -j 0
usage "--max-events 0" "--max-events '0'" --against sim $C --max-events 0
usage "unknown pattern in --only" "unknown pattern 'nope'" --against sim $C --only counter,nope
usage "--format json" "--format" --against sim $C --format json
usage "an option of the grid check" "bad option '--quick'" --against sim $C --quick
usage "stray argument" "unexpected argument 'extra'" --against sim $C extra
usage "missing config file" "$tmp/none\.ini" --against sim --config "$tmp/none.ini"
usage "bad -p key" "nope" --against sim $C -p l2.nope=1
finish check_against_sim
