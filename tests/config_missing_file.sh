#!/usr/bin/env bash
# config_missing_file.sh - `atomsim config --config /nonexistent` printed the
# option table and exited 0, as if the file had been read: --config and -p
# now need --dump (one line, exit 2), and --dump names a missing file.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
. tests/lib/expect_one_line.sh

expect "config --config /nonexistent" 2 "^atomsim config: --config goes with --dump" "$A" config --config /nonexistent
expect "config --config FILE (no --dump)" 2 "^atomsim config: --config goes with --dump" "$A" config --config configs/h100.ini
expect "config -p (no --dump)" 2 "^atomsim config: -p goes with --dump" "$A" config -p gpu.name=x
expect "config --format json (no --dump): refused, not ignored" 2 "^atomsim config: --format json is the dump's" "$A" config --format json
expect "config --config /nonexistent --dump" 2 "^atomsim config: /nonexistent: cannot open config" \
    "$A" config --config /nonexistent --dump
rc=0
"$A" config >"$tmp/table" 2>"$tmp/err" || rc=$?
check_eval "config alone still prints the option table" "[ $rc -eq 0 ] && grep -q '^sim.max_events ' $tmp/table && [ ! -s $tmp/err ]"
"$A" config --config configs/h100.ini --dump >"$tmp/dump" 2>"$tmp/err"
check_eval "config --config FILE --dump still dumps it" "grep -q '^name = NVIDIA H100' $tmp/dump && [ ! -s $tmp/err ]"
finish config_missing_file
