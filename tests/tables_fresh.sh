#!/usr/bin/env bash
# tables_fresh.sh - the shipped cost tables (tables/*.json) are what
# `make tables` makes from the committed configs, datasets and simulator
# parts (tables/sim/GPU/), byte for byte (but for the "version" line, the
# build that wrote them, which moves with every commit), and they load: a config, CPU tier
# or dataset changed without `make tables` fails here. Whether the parts
# still match the simulator is tests/tables_sim_cells.sh's question.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

unversioned() { sed -E 's/^(  "version": )"[^"]*",$/\1"*",/' "$1"; }

for g in h100 h200; do
    engine=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory "table-engine-$g" 2>/dev/null)
    check_eval "make table-engine-$g names sim or model ($engine)" "[ '$engine' = sim ] || [ '$engine' = model ]"
    if [ ! -f "tables/$g.json" ]; then
        bad "tables/$g.json is missing (make tables)"
        continue
    fi
    # A make inside make (make asan) inherits MAKEFLAGS, whose -w prints
    # "Entering directory" whatever this command line says: run it clean.
    args=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
        make -s --no-print-directory "table-args-$g" 2>/dev/null)
    if [ -z "$args" ]; then
        bad "make table-args-$g prints no export arguments"
        continue
    fi
    merge=
    if [ "$engine" = sim ]; then
        merge=$(ls tables/sim/$g/part-*.csv 2>/dev/null)
        if [ -z "$merge" ]; then
            bad "tables/sim/$g/ holds no parts (make tables-sim-$g)"
            continue
        fi
        merge="--merge $merge"
    fi
    # shellcheck disable=SC2086
    "$A" export $args $merge --output "$tmp/$g.json" 2>"$tmp/err" || cat "$tmp/err"
    # the build's version, which every commit moves, is the one line let differ
    check_eval "tables/$g.json is what make tables makes (its version excepted)" \
        "cmp -s <(unversioned tables/$g.json) <(unversioned $tmp/$g.json)"
    check_eval "tables/$g.json names the build that made it" "grep -q '^  \"version\": \"[^\"]' tables/$g.json"
    check_eval "tables/$g.json is at most 16 MB" "[ \$(stat -c %s tables/$g.json) -le 16777216 ]"
    "$A" dispatch --table "tables/$g.json" --pattern compaction --n 10000000 --selectivity 0.25 >"$tmp/out" 2>&1
    check_eval "tables/$g.json answers a query" "grep -q '^decision: ' $tmp/out"
done
finish tables_fresh
