#!/usr/bin/env bash
# golden.sh - atomsim's outputs on a fixed set of inputs, byte for byte
# (tests/golden/cases.txt): run, sweep, validate, export, dispatch, config,
# check and plan.  A restructuring must reproduce them; a change that means
# to move a number regenerates them on purpose (`make golden-update`, which
# runs this with GOLDEN_UPDATE=1) and the diff shows what moved.  Lines that
# state a config's trust level are left out of the comparison, and the
# build's version is masked: byte-identical, version fields excepted.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
G=tests/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
# what is compared: stdout without trust-level lines, then the exit status
# and the build's version, which every JSON output carries and every commit
# moves, masked to its key ("version": "*")
normalize() {
    grep -Ev '^[[:space:]]*("trust"|#?[[:space:]]*trust[ _:])' "$1" |
        sed -E 's/^([[:space:]]*"version":[[:space:]]*)"([^"\\]|\\.)*"/\1"*"/'
    echo "exit $2"
}

while read -r name kind args; do
    case "$name" in '' | '#'*) continue ;; esac
    rc=0
    # shellcheck disable=SC2086 # the case's arguments are words
    "$A" $args >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
    normalize "$tmp/out" "$rc" >"$tmp/norm"
    case "$kind" in
    text) want=$G/expected/$name.out ;;
    sha256)
        want=$G/expected/$name.sha256
        sha256sum <"$tmp/norm" | cut -d' ' -f1 >"$tmp/sum"
        mv "$tmp/sum" "$tmp/norm"
        ;;
    *)
        bad "$name: kind '$kind' is neither text nor sha256"
        continue
        ;;
    esac
    if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
        cp "$tmp/norm" "$want"
        ok "$name: written"
    elif [ ! -f "$want" ]; then
        bad "$name: no $want (make golden-update writes it)"
    elif cmp -s "$tmp/norm" "$want"; then
        ok "$name"
    else
        bad "$name: differs from $want"
        diff "$want" "$tmp/norm" | head -8
    fi
done <$G/cases.txt
finish golden
