#!/usr/bin/env bash
# validate_only_leak.sh - `atomsim validate --only nope` (no row matches)
# returned without freeing the dataset and its per-row arrays; under
# valgrind its error path, and a bad --split, must lose no memory.  Skips
# (passes, saying so) where valgrind is not installed.  ATOMSIM may name
# the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

# An ASan build (make asan) checks its own leaks at exit, and valgrind
# cannot run it: there the binary runs alone, a leak failing its exit status.
asan=0
nm "$A" 2>/dev/null | grep -q __asan_init && asan=1
if [ $asan = 0 ] && ! command -v valgrind >/dev/null; then
    ok "valgrind is not installed: skipped"
    finish validate_only_leak
    exit
fi
leaks() { # NAME ARGS...: exit 2, one line, nothing lost
    local name=$1 rc=0
    shift
    : >"$tmp/vg"
    if [ $asan = 1 ]; then
        ASAN_OPTIONS=detect_leaks=1:exitcode=86 "$A" validate "$@" >/dev/null 2>"$tmp/err" || rc=$?
    else
        valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9 \
            --log-file="$tmp/vg" "$A" validate "$@" >/dev/null 2>"$tmp/err" || rc=$?
    fi
    check_eval "$name: exit 2 and one line ($rc, $(wc -l <"$tmp/err") lines)" "[ $rc -eq 2 ] && [ \$(wc -l <$tmp/err) -eq 1 ]"
    check_eval "$name: no memory lost" "! grep -q 'lost' $tmp/vg"
}
printf 'rule,n\nx,1\n' >"$tmp/bad-split.txt"
leaks "--only nope" --config configs/h100.ini --data validate/data/h100.csv --only nope
leaks "a bad --split" --config configs/h100.ini --data validate/data/h100.csv --split "$tmp/bad-split.txt" --rows fit
finish validate_only_leak
