#!/usr/bin/env bash
# cli_determinism.sh - the simulator is a function of its input: the same
# command twice gives byte-identical output (CSV and JSON), for every
# pattern, CAS loops included, whose retries follow the simulated order of
# operations.  Another --seed changes only the arbitration among equal
# times: the run still succeeds, and what cannot depend on arbitration
# (the parameters, the work done) stays the same.  ATOMSIM may name the
# binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
D=tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi

# pattern and its flags; CAS patterns at small n (their cost grows as n^2
# per contended word)
cases=(
    "store --n 5000 --selectivity 0.5"
    "counter --n 5000"
    "counter-aggregated --n 5000 --selectivity 0.3"
    "compaction --n 5000 --selectivity 0.7"
    "histogram --n 5000 --bins 17 --hot 0.2"
    "histogram-shared --n 5000 --bins 300 --wg 96"
    "histogram-u8-cas --n 600 --bins 3"
    "histogram-u16-cas --n 600 --bins 5 --wg 64"
    "cas-append --n 400 --selectivity 0.8"
    "cas-append --n 300 --wg 32"
    "bitmask --n 5000 --selectivity 0.5"
    "reduce --n 5000 --wg 1024"
    "distinct-lines --n 5000 --addresses 7"
)

for c in "${cases[@]}"; do
    # shellcheck disable=SC2086
    set -- $c
    for fmt in csv json; do
        r1=0 r2=0
        "$A" run --config $D/tiny.ini --pattern "$@" --format $fmt >"$tmp/a" 2>"$tmp/ea" || r1=$?
        "$A" run --config $D/tiny.ini --pattern "$@" --format $fmt >"$tmp/b" 2>"$tmp/eb" || r2=$?
        if [ $r1 -eq 0 ] && [ $r2 -eq 0 ] && [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then
            ok "same run twice, byte-identical $fmt: $c"
        else
            bad "same run twice, $fmt: $c (exit $r1 and $r2; $(head -1 "$tmp/ea"))"
            diff "$tmp/a" "$tmp/b" | head -6 | sed 's/^/       /'
        fi
    done
    # another seed: succeeds; parameters and the count of atomic instructions
    # of patterns without retries are unchanged
    r3=0
    "$A" run --config $D/tiny.ini --pattern "$@" --format csv >"$tmp/a" 2>/dev/null || r3=$?
    "$A" run --config $D/tiny.ini --pattern "$@" --format csv --seed 987654321 >"$tmp/c" 2>"$tmp/ec" || r3=$?
    if [ $r3 -ne 0 ]; then
        bad "--seed 987654321: $c (exit $r3: $(head -1 "$tmp/ec"))"
        continue
    fi
    cols() { # the named columns of a one-row CSV
        python3 - "$1" "${@:2}" <<'EOF'
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(",".join(r[k] for k in sys.argv[2:]))
EOF
    }
    keep=(pattern n wg selectivity bins hot addresses smem_per_wg engine workgroups wg_per_sm)
    case "$1" in
        histogram-u8-cas|histogram-u16-cas|cas-append) ;;            # retries depend on the order
        compaction) keep+=(atomic_instructions l2_atomic_ops l2_requests) ;; # slots (so store lines) do too
        *) keep+=(atomic_instructions l2_atomic_ops l2_requests store_requests smem_atomic_instructions) ;;
    esac
    if [ "$(cols "$tmp/a" "${keep[@]}")" = "$(cols "$tmp/c" "${keep[@]}")" ]; then
        if cmp -s "$tmp/a" "$tmp/c"; then same="same timing"; else same="timing differs"; fi
        ok "another --seed runs, same work ($same): $c"
    else
        bad "another --seed changed the work: $c"
        diff "$tmp/a" "$tmp/c" | sed 's/^/       /'
    fi
done

# the seed reaches the engine: over these runs, some timing changes with it
# (equal-time arbitration is common when every SM launches at once)
changed=0
for s in 2 3 4 5; do
    "$A" run --config $D/tiny.ini --pattern cas-append --n 300 --format csv >"$tmp/a" 2>/dev/null
    "$A" run --config $D/tiny.ini --pattern cas-append --n 300 --format csv --seed $s >"$tmp/c" 2>/dev/null
    cmp -s "$tmp/a" "$tmp/c" || changed=1
done
if [ $changed = 1 ]; then ok "--seed changes the arbitration of some run"; else bad "--seed changes nothing in 4 tries"; fi

finish
