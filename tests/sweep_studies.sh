#!/usr/bin/env bash
# sweep_studies.sh - the shipped studies (configs/studies/*.ini) are valid
# version-1 files that run: each, at n = 2^10 (the command line replaces
# every grid's n), writes its [outputs] CSV with the run's header plus a
# `config` column naming every config it lists, as many rows as --count
# says, nothing on stderr; and a study equals the sweep its grid describes.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
engines=sim
if "$A" run --engine model --pattern counter --n 1024 >/dev/null 2>&1; then engines=sim,model; fi
"$A" run --pattern counter --n 1024 --format csv | head -1 >"$tmp/run-header"

n=0
for s in configs/studies/*.ini; do
    n=$((n + 1))
    name=$(basename "$s" .ini)
    grep -q '^version = 1' "$s" || bad "$s: no 'version = 1'"
    out=$(sed -n 's/^csv = *//p' "$s")
    [ "$out" = "$name.csv" ] || bad "$s: [outputs] csv should be $name.csv (plots/plots.mk finds it by name)"
    count=$("$A" study "$s" --n 2^10 --engine "$engines" --count 2>"$tmp/err") || { bad "$s: --count: $(head -1 "$tmp/err")"; continue; }
    "$A" study "$s" --n 2^10 --engine "$engines" --out-dir "$tmp/o" >"$tmp/out" 2>"$tmp/err" ||
        { bad "$s exited $?: $(head -1 "$tmp/err")"; continue; }
    [ -s "$tmp/err" ] && bad "$s wrote on stderr: $(head -1 "$tmp/err")"
    [ -s "$tmp/out" ] && bad "$s wrote on stdout"
    csv=$tmp/o/$name.csv
    [ -f "$csv" ] || { bad "$s: no $csv"; continue; }
    rows=$(($(wc -l <"$csv") - 1))
    [ "$rows" = "$count" ] || bad "$s: $rows rows, --count says $count"
    ncol=$(tr ',' '\n' <"$tmp/run-header" | wc -l)
    head -1 "$csv" | cut -d, -f1-"$ncol" | cmp -s - "$tmp/run-header" || bad "$s: the header does not start with the run's"
    head -1 "$csv" | cut -d, -f$((ncol + 1)) | grep -qx config || bad "$s: no config column"
    for c in $(sed -n 's/^configs = *//p' "$s" | tr ',' ' '); do
        cn=$(basename "$c" .ini)
        grep -q ",$cn\(,\|$\)" "$csv" || bad "$s: no rows for config $cn"
    done
    [ "$(tail -n +2 "$csv" | cut -d, -f2 | sort -u)" = 1024 ] || bad "$s: --n 2^10 did not replace every grid's n"
done
[ "$n" -ge 3 ] || bad "only $n studies in configs/studies"

# a study equals the sweep its (one) grid describes
printf '[study]\nversion = 1\ncanonical = no\nconfig_column = no\n[grid]\npattern = histogram, counter\nn = 2^10\nbins = 1..64:x4\nl2.slice_count = 40, 80\n[outputs]\ncsv = eq.csv\n' >"$tmp/eq.ini"
"$A" study "$tmp/eq.ini" --out-dir "$tmp/o" || bad "eq study exited $?"
"$A" sweep --pattern histogram,counter --n 2^10 --bins 1..64:x4 --vary l2.slice_count=40,80 >"$tmp/eq-sweep.csv"
cmp -s "$tmp/o/eq.csv" "$tmp/eq-sweep.csv" || bad "a study differs from its sweep"
# --stdout and --shard on a study
"$A" study "$tmp/eq.ini" --stdout | cmp -s - "$tmp/eq-sweep.csv" || bad "study --stdout differs"
{ "$A" study "$tmp/eq.ini" --stdout --shard 1/2; "$A" study "$tmp/eq.ini" --stdout --shard 2/2 | tail -n +2; } |
    cmp -s - "$tmp/eq-sweep.csv" || bad "study shards differ from the whole"

[ $fail = 0 ] && echo "ok   $n shipped studies run at n = 2^10 (engines $engines); a study equals its sweep"
exit $fail
