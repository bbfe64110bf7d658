#!/usr/bin/env bash
# readme_samples.sh - the sample outputs in README.md are what their
# commands print today: docs/readme_samples.sh regenerates every block
# between "<!-- sample: NAME -->" and "<!-- /sample -->", and this fails
# when the result differs from the committed README (run
# `bash docs/readme_samples.sh` to refresh them after a change that moves
# an output).  Also that `make run` still runs the recipe the samples
# assume, and that the README stays within 300 lines.  ATOMSIM may name
# the binary.
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

check_eval "README.md has sample blocks" "grep -q '^<!-- sample: ' README.md"
check_eval "every sample block is closed" \
    "[ \$(grep -c '^<!-- sample: ' README.md) -eq \$(grep -c '^<!-- /sample -->' README.md) ]"
check_eval "README.md is at most 300 lines, a user's guide (details go in docs/)" \
    "[ \$(wc -l <README.md) -le 300 ]"
check_eval "make run's recipe is the one the samples run" \
    "grep -q 'bash app/default_study.sh \$(B)/atomsim configs/h100.ini' Makefile"

rc=0
ATOMSIM=$A bash docs/readme_samples.sh --print README.md >"$tmp/README.md" 2>"$tmp/err" || rc=$?
check_eval "docs/readme_samples.sh runs every sample's commands (exit 0)" "[ $rc -eq 0 ]"
[ $rc -eq 0 ] || sed 's/^/       /' "$tmp/err"
if [ $rc -eq 0 ]; then
    if diff -u README.md "$tmp/README.md" >"$tmp/diff"; then
        ok "README.md's samples are what their commands print"
    else
        bad "README.md's samples are what their commands print (bash docs/readme_samples.sh refreshes them)"
        head -n 40 "$tmp/diff" | sed 's/^/       /'
    fi
fi
finish readme_samples
