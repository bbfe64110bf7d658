#!/usr/bin/env bash
# default_study.sh - what `make run` shows a newcomer: one question the
# simulator answers well, answered in one table and one line, then the
# commands to try next.  The question: how many bins does a histogram need
# on this GPU before its atomics stop contending, and where is the CPU tier
# faster?  The GPU column is the simulator (`atomsim sweep`, this config);
# the CPU column is the CPU tier of the GPU's shipped cost table
# (tables/NAME.json, `atomsim dispatch`: the CPU's time with the input
# moved to it over PCIe), left out when there is no table.
#
#   app/default_study.sh [ATOMSIM] [CONFIG]
set -eu
atomsim=${1:-build/atomsim}; cfg=${2:-configs/h100.ini}
name=$(basename "$cfg" .ini)
table=tables/$name.json
n=1048576
bins=1..2^16:x4
gpu=$("$atomsim" config --dump --config "$cfg" | sed -n 's/^name = //p' | head -1)

# bins,time_us (the simulator, one row per K)
sim=$("$atomsim" sweep --config "$cfg" --pattern histogram --n "$n" --bins "$bins" --format csv |
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["bins"] "," $c["time_us"] }')
# bins,cpu_us (the cost table's CPU tier), when the table exists
cpu=""
if [ -f "$table" ]; then
    q=$(mktemp)
    trap 'rm -f "$q"' EXIT
    { echo "pattern,n,bins"; printf '%s\n' "$sim" | awk -F, -v n="$n" '{ print "histogram," n "," $1 }'; } >"$q"
    cpu=$("$atomsim" dispatch --table "$table" --batch "$q" |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["bins"] "," $c["cpu_us"] }')
fi

printf 'How many bins until a histogram'"'"'s atomics stop contending on %s, and when is the CPU faster?\n' "${gpu:-$name}"
printf '%s\n--\n%s\n' "$sim" "$cpu" | awk -F, -v has_cpu="$([ -n "$cpu" ] && echo 1 || echo 0)" -v table="$table" '
$0 == "--" { part = 2; next }
part != 2 && NF == 2 { k[++m] = $1; g[m] = $2 + 0; if (!best || g[m] < best) best = g[m]; next }
part == 2 && NF == 2 { c[$1] = $2 + 0 }
function range_text(lo, hi) { return lo == hi ? lo : lo "-" hi }
function row(label, fmt, v,   i) {
    printf "%-26s", label
    for (i = 1; i <= m; i++) printf fmt, v[i]
    printf "\n"
}
END {
    printf "(2^20 keys, each adds 1 to bin (key >> 3) %% K, workgroups of 256; the GPU simulated on this config)\n"
    for (i = 1; i <= m; i++) {
        cp[i] = c[k[i]]
        side[i] = (k[i] in c) ? (g[i] <= c[k[i]] ? "GPU" : "CPU") : "-"
        # the runs of K where the CPU tier wins, for the answer
        if (side[i] == "CPU") { if (!open) { lo = k[i]; open = 1 } hi = k[i] }
        if ((side[i] != "CPU" || i == m) && open) { runs[++nr] = range_text(lo, hi); open = 0 }
    }
    row("bins K", "%8s", k)
    row("GPU time (us)", "%8.1f", g)
    if (has_cpu) {
        row("CPU tier (us, with PCIe)", "%8.1f", cp)
        row("faster side", "%8s", side)
    }
    for (r = 1; r <= nr; r++) cpu_runs = cpu_runs (r == 1 ? "K = " : r == nr ? " and " : ", ") runs[r]
    # contention is gone from the smallest K on which every larger K is
    # within 10% of the fastest (the rule of plots/answers.sh)
    stop = m
    while (stop > 1 && g[stop - 1] <= 1.1 * best) stop--
    printf "Answer: contention is gone by K = %s (within 10%% of the fastest K)", k[stop]
    if (has_cpu)
        printf "; the CPU is faster at %s.\n", cpu_runs ? cpu_runs : "no K"
    else
        printf " (no cost table %s for the CPU: make tables).\n", table
}'

cat <<EOF

Next: $atomsim sweep --config $cfg --pattern histogram-shared --n 2^20 --bins 1..4096:x8 | cut -d, -f5,11   (bins in shared memory)
      $atomsim dispatch --table $table --pattern histogram --n 2^20 --bins 64   (GPU or CPU for one call, and why)
      $atomsim validate --config $cfg --data validate/data/$name.csv   |   make plots   |   $atomsim --help
EOF
