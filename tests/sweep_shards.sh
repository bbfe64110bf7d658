#!/usr/bin/env bash
# sweep_shards.sh - the shards together equal the whole: for N = 1..5 and a
# grid of 15 rows, the shards' rows concatenated in k order (headers after
# the first dropped) are the whole sweep byte for byte, including N larger
# than some blocks and --canonical; the GNU parallel recipe of docs/cli.md does the
# same on this machine; the output is the same for -j 1, 2 and 3.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
grid=(--pattern histogram,counter,store --n 2^10 --bins 1..16:x2 --no-progress)

"$A" sweep "${grid[@]}" >"$tmp/whole.csv" || bad "whole sweep exited $?"
rows=$(($(wc -l <"$tmp/whole.csv") - 1))
[ "$rows" = 15 ] || bad "$rows rows, want 15"
[ "$("$A" sweep "${grid[@]}" --count)" = 15 ] || bad "--count"
for n in 1 2 3 4 5 16; do
    total=0
    for k in $(seq "$n"); do
        "$A" sweep "${grid[@]}" --shard "$k/$n" >"$tmp/part-$k.csv" || bad "shard $k/$n exited $?"
        c=$("$A" sweep "${grid[@]}" --shard "$k/$n" --count)
        total=$((total + c))
        [ "$c" = $(($(wc -l <"$tmp/part-$k.csv") - 1)) ] || bad "shard $k/$n: --count $c"
        head -1 "$tmp/part-$k.csv" | cmp -s - <(head -1 "$tmp/whole.csv") || bad "shard $k/$n has no header"
    done
    [ "$total" = 15 ] || bad "N=$n: shard counts add to $total"
    for k in $(seq "$n"); do if [ "$k" = 1 ]; then cat "$tmp/part-1.csv"; else tail -n +2 "$tmp/part-$k.csv"; fi; done >"$tmp/joined.csv"
    cmp -s "$tmp/joined.csv" "$tmp/whole.csv" || bad "N=$n: the shards joined differ from the whole"
done

# --canonical shards the deduplicated rows
"$A" sweep "${grid[@]}" --canonical >"$tmp/canon.csv"
[ "$(($(wc -l <"$tmp/canon.csv") - 1))" = 7 ] || bad "canonical: $(($(wc -l <"$tmp/canon.csv") - 1)) rows, want 5 + 1 + 1"
for k in 1 2 3; do "$A" sweep "${grid[@]}" --canonical --shard "$k/3"; done | awk 'NR == 1 || !/^pattern,/' >"$tmp/canon-joined.csv"
cmp -s "$tmp/canon-joined.csv" "$tmp/canon.csv" || bad "canonical shards joined differ"

# -j does not change a byte
for j in 1 2 3; do
    "$A" sweep "${grid[@]}" -j "$j" | cmp -s - "$tmp/whole.csv" || bad "-j $j differs"
done

# the docs/cli.md recipe: GNU parallel, four shards, kept in order
if command -v parallel >/dev/null 2>&1; then
    parallel --will-cite -k -j 2 "$A" sweep "${grid[@]}" -j 1 --shard {}/4 ::: 1 2 3 4 |
        awk 'NR == 1 || !/^pattern,/' >"$tmp/parallel.csv"
    cmp -s "$tmp/parallel.csv" "$tmp/whole.csv" || bad "GNU parallel's shards differ from the whole"
    # and as a Slurm array would leave them: one file per task, then joined
    parallel --will-cite -j 2 "$A" sweep "${grid[@]}" -j 1 --shard {}/4 '>' "$tmp/task-{}.csv" ::: 1 2 3 4
    awk 'FNR == 1 && NR != 1 { next } { print }' "$tmp"/task-{1,2,3,4}.csv >"$tmp/slurm.csv"
    cmp -s "$tmp/slurm.csv" "$tmp/whole.csv" || bad "per-task shard files joined differ from the whole"
else
    echo "note: GNU parallel is not installed; its recipe is not checked"
fi

[ $fail = 0 ] && echo "ok   shards (N = 1..5, 16, canonical, GNU parallel) join to the whole; -j 1..3 identical"
exit $fail
