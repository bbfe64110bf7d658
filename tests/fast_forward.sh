#!/usr/bin/env bash
# fast_forward.sh - the fast-forward of compare-and-swap runs past the
# event budget (sim/fastfwd.c) held to the detailed path: a 124-wave 16-bit
# CAS histogram run at a budget under a quarter of its detailed events
# finishes within it, within 10% of the detailed run's time and attempts
# (the goal, set before this case was run), says so on stderr, and repeats
# byte for byte; a run inside its budget is untouched; a run whose last
# wave alone outgrows the budget, and a pattern with no fast-forward, still
# stop at the budget with the budget named.
set -u
A=${ATOMSIM:-build/atomsim}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
case_=(--config configs/h100.ini --pattern histogram-u16-cas --n 1048576 --wg 64 --bins 1024 --smem-per-wg 45056 --format csv)

# column of a CSV row by header name
col() { awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i } NR == 2 { print $c }' "$1"; }

"$A" run "${case_[@]}" -p sim.max_events=1e9 >"$T/ref.csv" 2>"$T/ref.err" || fail "the detailed run failed"
"$A" run "${case_[@]}" -p sim.max_events=2e9 >"$T/ref2.csv" 2>/dev/null || fail "the detailed run at 2e9 failed"
cmp -s "$T/ref.csv" "$T/ref2.csv" || fail "a run inside its budget changed with the budget"
[ -s "$T/ref.err" ] && fail "a run inside its budget printed: $(cat "$T/ref.err")"
ref_events=$(col "$T/ref.csv" events)
awk -v e="$ref_events" 'BEGIN { exit !(e > 1.2e6) }' || fail "the case needs $ref_events events: too few to test a budget of 3e5"

"$A" run "${case_[@]}" -p sim.max_events=3e5 >"$T/ff.csv" 2>"$T/ff.err" || fail "the fast-forwarded run failed: $(cat "$T/ff.err")"
grep -q "were in workgroups skipped" "$T/ff.err" || fail "no fast-forward note on stderr"
for k in cycles cas_attempts l2_requests; do
    r=$(col "$T/ref.csv" "$k")
    f=$(col "$T/ff.csv" "$k")
    awk -v r="$r" -v f="$f" 'BEGIN { d = f / r - 1; exit !(d <= 0.10 && d >= -0.10) }' ||
        fail "$k: fast-forwarded $f against detailed $r, more than 10% apart"
done
awk -v e="$(col "$T/ff.csv" events)" 'BEGIN { exit !(e <= 3e5) }' || fail "the fast-forwarded run used more events than its budget"
"$A" run "${case_[@]}" -p sim.max_events=3e5 >"$T/ff2.csv" 2>/dev/null
cmp -s "$T/ff.csv" "$T/ff2.csv" || fail "the fast-forwarded run is not deterministic"

# one wave, one word: nothing to skip, so the budget stops it as before
"$A" run --config configs/h100.ini --pattern cas-append --selectivity 1 --n 16384 -p sim.max_events=2e5 >/dev/null 2>"$T/storm.err"
rc=$?
[ $rc = 1 ] || fail "a one-wave storm over its budget exited $rc, not 1"
grep -q "event budget sim.max_events=200000 exceeded" "$T/storm.err" || fail "a one-wave storm: $(cat "$T/storm.err")"
# a pattern with no fast-forward
"$A" run --config configs/h100.ini --pattern histogram --n 1048576 -p sim.max_events=1e4 >/dev/null 2>"$T/hist.err"
rc=$?
[ $rc = 1 ] || fail "histogram over its budget exited $rc, not 1"
grep -q "event budget" "$T/hist.err" || fail "histogram over its budget: $(cat "$T/hist.err")"

[ $fails = 0 ] && echo "fast_forward: ok" || exit 1
