#!/usr/bin/env bash
# c_api_header.sh - the other half of tests/unit/test_c_api_header.c: that
# test holds the generated C header to libatomsim bit for bit; this one
# holds libatomsim to `atomsim dispatch --batch` on the same queries (every
# grid cell of the h100 table, 2,000 random points a pattern, 200
# extrapolated ones), column by column as the CLI prints them: decision,
# reason, rule, the costs at 6 digits, both rules' verdicts, data location,
# source, extrapolated.  ATOMSIM names the CLI; the test binary and the
# table it was built against are beside it (make test builds them).
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
B=$(dirname "$A")
H=$B/tests/test_c_api_header
T=$B/tests/c_api/h100.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

if [ ! -x "$A" ] || [ ! -x "$H" ] || [ ! -f "$T" ]; then
    echo "FAIL $A, $H or $T is not built (make $H)"
    exit 1
fi
"$H" --emit-batch "$T" "$tmp/in.csv" "$tmp/want.csv" "$tmp/xin.csv" "$tmp/xwant.csv"
check_eval "the test binary writes the queries" "[ \$? -eq 0 ] && [ \$(wc -l <$tmp/in.csv) -gt 400000 ]"

# compare NAME IN WANT [dispatch flags]: the CLI's answer columns (9 on) against the library's
compare() {
    local name=$1 in=$2 want=$3
    shift 3
    if ! "$A" dispatch --table "$T" --batch "$in" "$@" >"$tmp/got.csv" 2>"$tmp/err"; then
        bad "$name: dispatch --batch failed: $(head -1 "$tmp/err")"
        return
    fi
    tail -n +2 "$tmp/got.csv" | cut -d, -f9- >"$tmp/got.cols"
    local rows diff
    rows=$(wc -l <"$want")
    diff=$(paste -d'|' "$tmp/got.cols" "$want" | awk -F'|' '$1 != $2' | wc -l)
    if [ "$rows" -gt 0 ] && [ "$(wc -l <"$tmp/got.cols")" -eq "$rows" ] && [ "$diff" -eq 0 ]; then
        ok "$name: $rows answers, every column the CLI prints equal"
    else
        bad "$name: $diff of $rows answers differ, first:"
        paste -d'|' "$tmp/got.cols" "$want" | awk -F'|' '$1 != $2 {print "       cli " $1; print "       lib " $2; exit}'
    fi
}
compare "every grid cell and random points inside the grid" "$tmp/in.csv" "$tmp/want.csv"
compare "extrapolated points" "$tmp/xin.csv" "$tmp/xwant.csv" --extrapolate
finish c_api_header
