#!/usr/bin/env bash
# cpubench_costs.sh - build/cpubench's cost mode (the CPU tier's constants):
# a quick run writes the raw CSV (every measure the config is derived from,
# reduce and bitmask included) and a config that atomsim loads, each figure from the
# median repetition; --from-csv derives the same figures again from that
# CSV; bad options exit 2 with one line.  Nothing here checks a time: the
# figures are whatever this machine gives.  CPUBENCH and ATOMSIM may name
# the binaries.  About a second on 2 cores.
set -u
cd "$(dirname "$0")/.."
C=${CPUBENCH:-build/cpubench}
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

rc=0
"$C" --quick --n 65536 --workers 2 --reps 3 --csv "$tmp/c.csv" --ini "$tmp/c.ini" --name cpu-test 2>"$tmp/err" || rc=$?
check "a quick run exits 0" test "$rc" -eq 0
for m in pool_dispatch pool_dispatch_cold count reduce bitmask store_s0 store_skip compact concat hist zero merge lines; do
    check "the CSV has $m" grep -q "^$m,2," "$tmp/c.csv"
done
check "the CSV and the config name the machine's boot id" \
    test "$(sed -n 's/^# boot_id: //p' "$tmp/c.csv")" = "$(sed -n 's/^; boot_id \([^ ]*\) .*/\1/p' "$tmp/c.ini")" -a \
    -n "$(sed -n 's/^# boot_id: //p' "$tmp/c.csv")"
check "23 histogram sizes (1 to 2^22 bins)" test "$(grep -c '^hist,' "$tmp/c.csv")" -eq 23
check "the config says it takes medians" grep -q 'median of 3 repetitions' "$tmp/c.ini"
for k in pool_dispatch_us key_ns reduce_ns bitmask_ns lines_ns store_ns store_skip_ns store_skip_lanes copy_gbps zero_ns_per_bin merge_ns_per_bin \
         update_l1_ns update_l2_ns update_llc_ns update_dram_ns update_same_bin_ns; do
    check "the config has $k" grep -Eq "^$k = [0-9.]+ ;" "$tmp/c.ini"
done
# key_ns is the count row's median, less the pool's median, per element a worker
want=$(awk -F, '$1 == "pool_dispatch" { p = $7 } $1 == "count" { t = $7; n = $3; w = $2 }
    END { v = (t - p) * 1000 * w / n; printf "%.4f", (v > 0 ? v : 0) }' "$tmp/c.csv")
check "key_ns is derived from the medians, at least 0 ($want)" grep -q "^key_ns = $want ;" "$tmp/c.ini"
want=$(awk -F, '$1 == "pool_dispatch" { p = $7 } $1 == "reduce" { t = $7; n = $3; w = $2 }
    END { v = (t - p) * 1000 * w / n; printf "%.4f", (v > 0 ? v : 0) }' "$tmp/c.csv")
check "reduce_ns is derived from the medians ($want)" grep -q "^reduce_ns = $want ;" "$tmp/c.ini"
want=$(awk -F, '$1 == "pool_dispatch" { p = $7 } $1 == "bitmask" { t = $7; n = $3; w = $2 }
    END { v = (t - p) * 1000 * w / n; printf "%.4f", (v > 0 ? v : 0) }' "$tmp/c.csv")
check "bitmask_ns is derived from the medians, at least 0 ($want)" grep -q "^bitmask_ns = $want ;" "$tmp/c.ini"
# lines_ns: the lines row over the zero row at the same P, per element a worker
want=$(awk -F, '$1 == "lines" { t = $7; n = $3; w = $2; k = $4 } $1 == "zero" { z[$4] = $7 }
    END { v = (t - z[k]) * 1000 * w / n; printf "%.4f", (v > 0 ? v : 0) }' "$tmp/c.csv")
check "lines_ns is derived from the lines and zero medians at P = 4096, at least 0 ($want)" \
    grep -q "^lines_ns = $want ;" "$tmp/c.ini"
check "the lines row times P = 4096" grep -q "^lines,2,[0-9]*,4096," "$tmp/c.csv"
# store_skip_ns: the skip row over the S = 0 row, per element a worker, times
# the lanes a branch covers, over min(p, 1 - p) at the skip row's S
want=$(awk -F, '$1 == "store_s0" { z = $7 } $1 == "store_skip" { t = $7; n = $3; w = $2; l = $4; s = $5 }
    END { p = 1 - (1 - s) ^ l; m = (p < 1 - p) ? p : 1 - p; v = (t - z) * 1000 * w / n * l / m; printf "%.3f", (v > 0 ? v : 0) }' "$tmp/c.csv")
check "store_skip_ns is derived from the medians ($want)" grep -q "^store_skip_ns = $want ;" "$tmp/c.ini"
# the skip row is timed where a vector of the config's lanes holds a selected
# key half the time, 1 - (1 - S)^lanes = 1/2, and at S = 0 beside it
check "store_skip is timed where the branch goes either way, store_s0 at S = 0" \
    awk -F, -v l="$(awk '$1 == "store_skip_lanes" { print $3 }' "$tmp/c.ini")" '
        $1 == "store_skip" { p = 1 - (1 - $5) ^ l; ok1 = (l == $4 && p > 0.49 && p < 0.51) }
        $1 == "store_s0" { ok0 = ($5 == 0) }
        END { exit !(ok0 && ok1) }' "$tmp/c.csv"
"$A" export --config configs/h100.ini --cpu "$tmp/c.ini" --only reduce --format csv --output "$tmp/t.csv" 2>"$tmp/aerr"
check "atomsim loads the config" test -s "$tmp/t.csv"

# --from-csv: the same figures from the raw timings
"$C" --from-csv "$tmp/c.csv" --ini "$tmp/d.ini" --name cpu-test --l1 "$(awk '$1 == "l1_bytes" { print $3 }' "$tmp/c.ini")" \
    --l2 "$(awk '$1 == "l2_bytes" { print $3 }' "$tmp/c.ini")" --llc "$(awk '$1 == "llc_bytes" { print $3 }' "$tmp/c.ini")" \
    2>/dev/null
check "--from-csv gives the same figures" \
    test "$(grep -E '^[a-z_0-9]+ = [0-9.]+ ;' "$tmp/c.ini")" = "$(grep -E '^[a-z_0-9]+ = [0-9.]+ ;' "$tmp/d.ini")"
# a CSV from before the lines row: no lines_ns at all (a 0 would read as a
# measurement), so the tier keeps the hashed price
grep -v '^lines,' "$tmp/c.csv" >"$tmp/old.csv"
"$C" --from-csv "$tmp/old.csv" --ini "$tmp/o.ini" --name cpu-test 2>/dev/null
check "--from-csv of a CSV without the lines row writes no lines_ns" \
    sh -c "test -s '$tmp/o.ini' && ! grep -q '^lines_ns' '$tmp/o.ini'"
# a lines row at a P with several private copies is not distinct-lines' one-copy price
sed 's/^lines,\([0-9]*\),\([0-9]*\),4096,/lines,\1,\2,1024,/' "$tmp/c.csv" >"$tmp/p1024.csv"
"$C" --from-csv "$tmp/p1024.csv" --ini "$tmp/p.ini" --name cpu-test 2>/dev/null
check "a lines row at P = 1,024 (4 copies) is not taken" sh -c "! grep -q '^lines_ns' '$tmp/p.ini'"

expect_2() {
    local name=$1 rc=0
    shift
    "$C" "$@" >"$tmp/out" 2>"$tmp/err2" || rc=$?
    check "$name: exit 2, one line" test "$rc" -eq 2 -a "$(wc -l <"$tmp/err2")" -eq 1
}
expect_2 "--workers 0" --workers 0 --quick
expect_2 "--n 2^40" --n 2^40 --quick
expect_2 "an unknown option" --frobnicate
finish cpubench_costs
