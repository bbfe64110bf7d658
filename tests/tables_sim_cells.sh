#!/usr/bin/env bash
# tables_sim_cells.sh - the simulator-made cells of the shipped tables are
# still what the simulator computes. The parts in tables/sim/GPU/ took
# core-hours, so `make test` cannot remake them; it re-simulates a sample
# instead: for each GPU and pattern, the first, middle and last of the
# committed cells that the simulator filled in under 0.3 CPU-seconds, each
# run alone (`export --shard I+1/CELLS` is exactly cell I), and checks that
# every part names today's config hash and scope. A change to the simulator
# or a GPU config that moves them fails here, and the remedy is `make
# tables-sim-GPU` (docs/dispatch.md, section 6). ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

for g in h100 h200; do
    parts=$(ls tables/sim/$g/part-*.csv 2>/dev/null)
    if [ -z "$parts" ]; then
        bad "tables/sim/$g/ holds no parts (make tables-sim-$g)"
        continue
    fi
    args=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
        make -s --no-print-directory "table-sim-args-$g" 2>/dev/null)
    # shellcheck disable=SC2086
    cells=$(sed -n 's/^# cells \([0-9]*\) .*/\1/p' $parts | sort -u)
    if [ "$(echo "$cells" | wc -l)" -ne 1 ] || [ -z "$cells" ]; then
        bad "tables/sim/$g/: parts disagree on the number of cells"
        continue
    fi
    # index,pattern,...,source(10),gpu_us(11),cpu_s(12)
    # shellcheck disable=SC2086
    awk -F, '/^[0-9]/ && $10 == "s" && $12 < 0.3 { row[$2, ++k[$2]] = $1 "," $11 }
             END { for (p in k) { print row[p, 1]; print row[p, int((k[p] + 1) / 2)]; print row[p, k[p]] } }' \
        $parts | sort -t, -k1,1n -u >"$tmp/sample"
    npat=$(awk -F, '/^[0-9]/ && $10 == "s" { print $2 }' $parts | sort -u | wc -l)
    ncov=$(awk -F, '/^[0-9]/ && $10 == "s" && $12 < 0.3 { print $2 }' $parts | sort -u | wc -l)
    check_eval "$g: the sample covers every pattern the simulator filled ($ncov of $npat)" \
        "[ $npat -ge 1 ] && [ $ncov -eq $npat ]"
    # every part made from today's config, event budget and scope
    heads=$(sed -n '2p;3p' $parts | sort -u)
    "$A" export $args -j 1 --shard "1/$cells" --output "$tmp/one.csv" 2>/dev/null
    check_eval "$g: every part was made from today's config, event budget and scope (else make tables-sim-$g)" \
        "[ \"\$(echo \"\$heads\" | wc -l)\" -eq 2 ] && [ \"\$heads\" = \"\$(sed -n '2p;3p' $tmp/one.csv | sort -u)\" ]"
    moved=0
    while IFS=, read -r idx want; do
        # shellcheck disable=SC2086
        "$A" export $args -j 1 --shard "$((idx + 1))/$cells" --output "$tmp/one.csv" 2>/dev/null
        got=$(awk -F, -v i="$idx" '$1 == i { print $10 "," $11 }' "$tmp/one.csv")
        if [ "$got" != "s,$want" ]; then
            echo "  $g cell $idx: committed s,$want, simulated now '${got}'"
            moved=$((moved + 1))
        fi
    done <"$tmp/sample"
    check_eval "$g: $(wc -l <"$tmp/sample") sampled simulator cells are what the simulator computes now (else make tables-sim-$g)" \
        "[ $moved -eq 0 ]"
done
finish tables_sim_cells
