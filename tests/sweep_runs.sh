#!/usr/bin/env bash
# sweep_runs.sh - a sweep equals its individual runs: every row `atomsim
# sweep` writes (over patterns, pattern flags, a config key, two configs and
# both engines where the model answers) is byte for byte the row `atomsim run`
# writes for that point, the label columns after it name the point, the
# header is the run's (plus those labels), and a clean sweep writes nothing on
# stderr.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }

engines=sim
if "$A" run --engine model --pattern counter --n 1024 >/dev/null 2>&1; then engines=sim,model; fi
cfgs=()
for c in configs/h100.ini configs/a100.ini; do
    if [ -f "$c" ] && "$A" config --config "$c" --dump >/dev/null 2>&1; then cfgs+=(--config "$c"); fi
done

# 1. one config: the header is exactly the run's
"$A" sweep --pattern histogram,counter --n 2^10,2^12 --bins 1..64:x8 --engine "$engines" -j 2 \
    >"$tmp/sweep.csv" 2>"$tmp/err" || bad "sweep exited $?"
[ -s "$tmp/err" ] && bad "a clean sweep wrote on stderr: $(head -1 "$tmp/err")"
"$A" run --pattern counter --n 1024 --format csv | head -1 >"$tmp/run-header"
head -1 "$tmp/sweep.csv" | cmp -s - "$tmp/run-header" || bad "the sweep's header is not the run's"
rows=$(($(wc -l <"$tmp/sweep.csv") - 1))
want=$((2 * 2 * 3 * $(echo "$engines" | tr ',' '\n' | wc -l)))
[ "$rows" = "$want" ] || bad "$rows rows, want $want"
tail -n +2 "$tmp/sweep.csv" | while IFS=, read -r pat n wg sel bins hot addr smem eng rest; do
    "$A" run --pattern "$pat" --n "$n" --wg "$wg" --selectivity "$sel" --bins "$bins" --hot "$hot" \
        --addresses "$addr" --engine "$eng" --format csv | tail -1
done >"$tmp/runs.csv"
tail -n +2 "$tmp/sweep.csv" | cmp -s - "$tmp/runs.csv" || { bad "the sweep's rows differ from their runs:"; diff <(tail -n +2 "$tmp/sweep.csv") "$tmp/runs.csv" | head -4; }

# 2. configs and a config key: the run's columns, then config and l2.slice_count
"$A" sweep "${cfgs[@]}" --config-column --pattern histogram --n 2^10 --bins 1,16 --vary l2.slice_count=40,80 \
    --engine "$engines" >"$tmp/labels.csv" 2>"$tmp/err" || bad "labelled sweep exited $?"
[ -s "$tmp/err" ] && bad "a clean sweep wrote on stderr: $(head -1 "$tmp/err")"
ncol=$(head -1 "$tmp/run-header" | tr ',' '\n' | wc -l)
head -1 "$tmp/labels.csv" | grep -q ",config,l2.slice_count$" || bad "label header: $(head -1 "$tmp/labels.csv" | tr ',' '\n' | tail -2 | tr '\n' ' ')"
head -1 "$tmp/labels.csv" | cut -d, -f1-"$ncol" | cmp -s - "$tmp/run-header" || bad "the labelled header does not start with the run's"
tail -n +2 "$tmp/labels.csv" | while IFS= read -r line; do
    echo "$line" | cut -d, -f1-"$ncol" >>"$tmp/labelled-rows.csv"
    IFS=, read -r pat n wg sel bins hot addr smem eng <<<"$(echo "$line" | cut -d, -f1-9)"
    cfgname=$(echo "$line" | cut -d, -f$((ncol + 1)))
    slices=$(echo "$line" | cut -d, -f$((ncol + 2)))
    cfgarg=()
    [ "$cfgname" != default ] && cfgarg=(--config "configs/$cfgname.ini")
    "$A" run "${cfgarg[@]}" -p l2.slice_count="$slices" --pattern "$pat" --n "$n" --bins "$bins" --engine "$eng" \
        --format csv | tail -1 >>"$tmp/labelled-runs.csv"
done
cmp -s "$tmp/labelled-rows.csv" "$tmp/labelled-runs.csv" || { bad "labelled rows differ from their runs:"; diff "$tmp/labelled-rows.csv" "$tmp/labelled-runs.csv" | head -4; }
nconf=$(( ${#cfgs[@]} ? ${#cfgs[@]} / 2 : 1 ))
rows=$(($(wc -l <"$tmp/labels.csv") - 1))
[ "$rows" = $((nconf * 2 * 2 * $(echo "$engines" | tr ',' '\n' | wc -l))) ] || bad "$rows labelled rows"

# 3. JSON: the run's document (atomsim-runs) for one effective config or several
"$A" sweep --pattern counter --n 2^10 --format json | grep -q '"schema":[[:space:]]*"atomsim-runs"' || bad "json schema (one config)"
"$A" sweep --pattern counter --n 2^10 --vary l2.slice_count=40,80 --format json >"$tmp/j"
grep -q '"schema":[[:space:]]*"atomsim-runs"' "$tmp/j" || bad "json schema (two configs)"
[ "$(grep -c '"l2.slice_count"' "$tmp/j")" -ge 2 ] || bad "json labels"

[ $fail = 0 ] && echo "ok   sweep rows equal their runs ($want + labelled rows, engines $engines)"
exit $fail
