#!/usr/bin/env bash
# export_sim.sh - `atomsim export --engine sim` on a small scope (counter and
# histogram-shared, n <= 2^14, wg 64 and 256, shared memory 0): the table
# loads in `atomsim dispatch`; exactly the cells in scope are the
# simulator's ('s'; a shared-memory value that holds as many workgroups an
# SM as 0 shares its time), the rest the model's ('m', the model table's
# times); -j 1 and -j 2 give the same bytes; shards 1/3..3/3 merged (and the
# GNU parallel recipe of docs/dispatch.md) give the unsharded table byte for
# byte; a part merged twice, a part left out, a part of another config
# (or scope) and a part cut short fail with exit 2 and one stderr line; a cell over --max-events falls back
# to the model, marked 'm'; --reuse carries the cells of another config's
# parts over where only the occupancy rule's keys differ and a cell's
# occupancy did not move, or only [smem] keys and the cell's pattern has no
# shared memory of its own, or only returning-only keys and the pattern uses
# no atomic's old value, giving the fresh parts' rows.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"
check() { check_eval "$@"; }

# expect NAME REGEX COMMAND...: exit 2, one stderr line matching REGEX, no stdout
expect() {
    local name=$1 re=$2 got=0
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || got=$?
    if [ "$got" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq -- "$re" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name: exit $got (want 2): $(head -2 "$tmp/err")"
    fi
}

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
C=(--config configs/h100.ini)
S=(--engine sim "${C[@]}" --only counter,histogram-shared --sim-max-n 2^14 --sim-wg 64,256 --sim-smem 0 --no-progress)

"$A" export "${S[@]}" -j 1 --output "$tmp/j1.json" 2>"$tmp/j1.err"
check "export --engine sim -j 1 exits 0" "[ \$? -eq 0 ] && [ -s $tmp/j1.json ]"
check "the cost report: CPU-seconds, core-hours, cells by engine" \
    "grep -Eq '^atomsim export: [0-9]+ simulator runs .*[0-9.]+ CPU-seconds, [0-9.]+ core-hours.*table cells: [0-9]+ from the simulator, [0-9]+ from the model \([0-9]+ of them scaled to their anchor\)$' $tmp/j1.err"
check "no progress line when stderr is not a terminal" "[ \$(wc -l <$tmp/j1.err) -eq 1 ] && ! grep -q \$'\\r' $tmp/j1.err"
"$A" export "${S[@]}" -j 2 --output "$tmp/j2.json" 2>/dev/null
check "-j 1 and -j 2 give byte-identical tables" "cmp -s $tmp/j1.json $tmp/j2.json"
if command -v script >/dev/null 2>&1; then
    # stderr a terminal: the progress line (cells done / total, time left)
    script -qec "$A export ${S[*]/--no-progress/} -j 2 --output $tmp/tty.json" /dev/null >"$tmp/tty.out" 2>&1
    check "on a terminal: a progress line of cells done / total" "tr '\\r' '\\n' <$tmp/tty.out | grep -Eq '^.*atomsim export: [0-9]+/[0-9]+ simulator cells \\([0-9]+%\\)' && cmp -s $tmp/tty.json $tmp/j1.json"
fi

"$A" dispatch --table "$tmp/j1.json" --pattern counter --n 4096 --wg 256 --selectivity 0.1 >"$tmp/d.out" 2>"$tmp/d.err"
check "the table loads in atomsim dispatch, its kernel from the simulator" \
    "[ \$? -eq 0 ] && grep -Eq '^decision: (gpu|cpu)$' $tmp/d.out && grep -q 'from the simulator' $tmp/d.out"

# shards, merged
for k in 1 2 3; do
    "$A" export "${S[@]}" -j 2 --shard "$k/3" --output "$tmp/part$k.csv" 2>/dev/null || bad "shard $k/3 exited $?"
done
n=$("$A" export "${S[@]}" --count)
check "the parts hold every simulator cell once ($n)" \
    "[ \$(cat $tmp/part[123].csv | grep -cv '^[#i]') -eq $n ] && [ $n -gt 100 ]"
"$A" export "${S[@]}" --merge "$tmp"/part{1,2,3}.csv --output "$tmp/merged.json" 2>/dev/null
check "shards 1/3, 2/3, 3/3 merged equal the unsharded table" "[ \$? -eq 0 ] && cmp -s $tmp/merged.json $tmp/j1.json"
if command -v parallel >/dev/null 2>&1; then
    parallel --will-cite -j 2 "$A" export "${S[@]}" -j 1 --shard {}/4 --output "$tmp/gp{}.csv" 2>/dev/null ::: 1 2 3 4
    "$A" export "${S[@]}" --merge "$tmp"/gp{1,2,3,4}.csv --output "$tmp/gp.json" 2>/dev/null
    check "docs/dispatch.md's GNU parallel recipe (4 shards) merges to the same table" "[ \$? -eq 0 ] && cmp -s $tmp/gp.json $tmp/j1.json"
else
    echo "note: GNU parallel is not installed; its recipe is not checked"
fi

# parts of a config that differs only in the occupancy rule's keys carry over
# every cell holding as many workgroups an SM under both; the rest run again
printf 'include = %s\n[gpu]\nsmem_per_sm_bytes = 66560\nsmem_reserved_per_wg_bytes = 1024\n' "$PWD/configs/h100.ini" >"$tmp/old.ini"
printf 'include = %s\n[l2]\nslice_count = 64\n' "$PWD/configs/h100.ini" >"$tmp/other.ini"
SO=(--engine sim --config "$tmp/old.ini" --only counter,histogram-shared --sim-max-n 2^14 --sim-wg 64,256 --sim-smem 0 --no-progress)
for k in 1 2 3; do
    "$A" export "${SO[@]}" -j 2 --shard "$k/3" --output "$tmp/old$k.csv" 2>/dev/null || bad "old shard $k/3 exited $?"
done
R=(--reuse-config "$tmp/old.ini" --reuse "$tmp/old1.csv" --reuse "$tmp/old2.csv" --reuse "$tmp/old3.csv")
: >"$tmp/reuse.err"
for k in 1 2 3; do
    "$A" export "${S[@]}" -j 2 --shard "$k/3" "${R[@]}" --output "$tmp/re$k.csv" 2>>"$tmp/reuse.err" || bad "reuse shard $k/3 exited $?"
done
strip() { cut -d, -f1-11 "$@"; }
check "--reuse: parts equal the fresh ones but for cpu_s" \
    "cmp -s <(strip $tmp/re[123].csv) <(strip $tmp/part[123].csv)"
carried=$(sed -n 's/.*; \([0-9]*\) of the runs carried over.*/\1/p' "$tmp/reuse.err" | awk '{ s += $1 } END { if (NR) print s }')
check "--reuse: most cells carried over, those whose occupancy changed run ($carried of $n carried)" \
    "[ -n '$carried' ] && [ '$carried' -gt \$(( $n / 2 )) ] && [ '$carried' -lt $n ]"
# parts of a config that differs in an [smem] key carry over the cells of
# patterns without shared memory of their own; histogram-shared's run again
printf 'include = %s\n[smem]\nloop_branch_cycles = 3\n' "$PWD/configs/h100.ini" >"$tmp/smemold.ini"
SM=(--engine sim --config "$tmp/smemold.ini" --only counter,histogram-shared --sim-max-n 2^14 --sim-wg 64,256 --sim-smem 0 --no-progress)
: >"$tmp/smemre.err"
for k in 1 2 3; do
    "$A" export "${SM[@]}" -j 2 --shard "$k/3" --output "$tmp/smemold$k.csv" 2>/dev/null || bad "smem old shard $k/3 exited $?"
done
for k in 1 2 3; do
    "$A" export "${S[@]}" -j 2 --shard "$k/3" --reuse-config "$tmp/smemold.ini" --reuse "$tmp/smemold1.csv" \
        --reuse "$tmp/smemold2.csv" --reuse "$tmp/smemold3.csv" --output "$tmp/smemre$k.csv" 2>>"$tmp/smemre.err" || bad "smem reuse shard $k/3 exited $?"
done
check "--reuse across an [smem] key: parts equal the fresh ones but for cpu_s" \
    "cmp -s <(strip $tmp/smemre[123].csv) <(strip $tmp/part[123].csv)"
carried=$(sed -n 's/.*; \([0-9]*\) of the runs carried over.*/\1/p' "$tmp/smemre.err" | awk '{ s += $1 } END { if (NR) print s }')
counters=$(cat "$tmp"/part[123].csv | grep -c '^[0-9]*,counter,')
check "--reuse across an [smem] key: exactly the counter cells carried over ($carried of $counters)" \
    "[ -n '$carried' ] && [ '$carried' -eq '$counters' ] && [ '$counters' -gt 0 ]"
# and across a returning-only key: the patterns that use an atomic's old
# value run again (compaction here), the others carry over
printf 'include = %s\n[coalesce]\nreply_cycles_per_request = 3\nlsu_return_cycles_per_request = 1.5\n' "$PWD/configs/h100.ini" >"$tmp/retold.ini"
RT=(--engine sim --only counter,compaction --sim-max-n 2^14 --sim-wg 64,256 --sim-smem 0 --no-progress)
"$A" export "${RT[@]}" --config "$tmp/retold.ini" -j 2 --shard 1/1 --output "$tmp/retold.csv" 2>/dev/null || bad "returning old part exited $?"
"$A" export "${RT[@]}" --config configs/h100.ini -j 2 --shard 1/1 --output "$tmp/retnew.csv" 2>/dev/null || bad "returning fresh part exited $?"
"$A" export "${RT[@]}" --config configs/h100.ini -j 2 --shard 1/1 --reuse-config "$tmp/retold.ini" --reuse "$tmp/retold.csv" \
    --output "$tmp/retre.csv" 2>"$tmp/retre.err" || bad "returning reuse exited $?"
check "--reuse across a returning-only key: the part equals the fresh one but for cpu_s" \
    "cmp -s <(strip $tmp/retre.csv) <(strip $tmp/retnew.csv)"
carried=$(sed -n 's/.*; \([0-9]*\) of the runs carried over.*/\1/p' "$tmp/retre.err")
counters=$(grep -c '^[0-9]*,counter,' "$tmp/retnew.csv")
check "--reuse across a returning-only key: exactly the counter cells carried over ($carried of $counters)" \
    "[ -n '$carried' ] && [ '$carried' -eq '$counters' ] && [ '$counters' -gt 0 ]"
expect "--reuse of a config that differs beyond occupancy is refused" "beyond occupancy" \
    "$A" export "${S[@]}" --shard 1/3 --reuse-config "$tmp/other.ini" --reuse "$tmp/old1.csv"
expect "--reuse of parts not made from --reuse-config is refused" "config hash" \
    "$A" export "${S[@]}" --shard 1/3 --reuse-config "$tmp/old.ini" --reuse "$tmp/part1.csv"
expect "--reuse needs --reuse-config" "go together" "$A" export "${S[@]}" --shard 1/3 --reuse "$tmp/old1.csv"

expect "a part merged twice is refused" "is also in" "$A" export "${S[@]}" --merge "$tmp"/part{1,2,2,3}.csv
expect "a part left out is refused" "in no part" "$A" export "${S[@]}" --merge "$tmp"/part{1,3}.csv
"$A" export "${S[@]}" -p l2.slice_count=64 --shard 2/3 --output "$tmp/other2.csv" 2>/dev/null
expect "a part of another config is refused" "config hash" "$A" export "${S[@]}" --merge "$tmp"/part1.csv "$tmp/other2.csv" "$tmp/part3.csv"
# S with its --sim-wg list replaced (an option given twice is refused)
expect "a part of another scope is refused" "scope" "$A" export "${S[@]/#64,256/64}" --merge "$tmp"/part{1,2,3}.csv
head -c -7 "$tmp/part2.csv" >"$tmp/short2.csv"
expect "a part cut short is refused" "cut short" "$A" export "${S[@]}" --merge "$tmp"/part1.csv "$tmp/short2.csv" "$tmp/part3.csv"
expect "a file that is not a part is refused" "not a part" "$A" export "${S[@]}" --merge "$tmp/j1.json"
expect "a grid value the table lacks is refused" "not a grid point" "$A" export "${S[@]/#64,256/100}" --count
expect "--shard needs --engine sim" "need --engine sim" "$A" export "${C[@]}" --shard 1/2

# over the event budget: the model's time, marked m
"$A" export "${S[@]}" -j 2 --max-events 1000 --output "$tmp/budget.json" 2>"$tmp/budget.err"
check "--max-events 1000: some runs go over the budget" "grep -Eq '\\(([1-9][0-9]*) over the event budget' $tmp/budget.err"
"$A" export "${C[@]}" --only counter,histogram-shared --output "$tmp/model.json"

if command -v python3 >/dev/null 2>&1; then
    cat >"$tmp/check.py" <<'EOF'
import json, sys
from math import prod
sim, model, budget = (json.load(open(f)) for f in sys.argv[1:4])
g = sim["gpu"]["config"]["gpu"]
def occupancy(wg, smem_bytes):
    # model/config.c's cfg_wg_per_sm: what the shared-memory reuse compares
    warps = -(-wg // g["subgroup_size"])
    need = smem_bytes + g["smem_reserved_per_wg_bytes"]
    by_smem = g["smem_per_sm_bytes"] // need if need else g["max_wg_per_sm"]
    return min(g["max_wg_per_sm"], g["max_threads_per_sm"] // wg, g["max_warps_per_sm"] // warps, by_smem)
def cells(t):
    for p in t["patterns"]:
        axes = p["axes"]
        for i in range(p["cell_count"]):
            pt, j = {}, i
            for a in reversed(axes):
                pt[a["name"]] = a["values"][j % len(a["values"])]
                j //= len(a["values"])
            yield p["pattern"], i, pt, p["cells"]
def own_smem(pat, pt):
    return 4 * int(pt.get("bins", 0)) if pat == "histogram-shared" else 0
def expected_sim(pat, pt):
    if pt["n"] > 2 ** 14 or pt["wg"] not in (64, 256):
        return False
    # the cell shares its time with smem 0 when every grid value between holds as many workgroups an SM
    smem = next(a["values"] for a in next(p for p in sim["patterns"] if p["pattern"] == pat)["axes"] if a["name"] == "smem_per_wg")
    occ = lambda s: occupancy(int(pt["wg"]), max(own_smem(pat, pt), int(s)))
    return all(occ(s) == occ(0) for s in smem if s <= pt["smem_per_wg"])
models = {(pat, i): c["gpu_us"][i] for pat, i, pt, c in cells(model)}
wrong, n_s, n_m, differ = [], 0, 0, 0
for pat, i, pt, c in cells(sim):
    src, want = c["source"][i], expected_sim(pat, pt)
    n_s += src == "s"
    n_m += src == "m"
    if (src == "s") != want:
        wrong.append((pat, pt, src))
    if src == "m" and c["gpu_us"][i] != models[(pat, i)]:
        wrong.append((pat, pt, "m but not the model's time"))
    differ += src == "s" and c["gpu_us"][i] != models[(pat, i)]
print(("ok   " if not wrong and n_s and n_m else "FAIL ") +
      f"cells in scope are 's' ({n_s}), the rest 'm' with the model's time ({n_m})" + (f": {wrong[:3]}" if wrong else ""))
print(("ok   " if differ > n_s // 2 else "FAIL ") + f"the simulator's cells are its own times ({differ} of {n_s} differ from the model's)")
fell, bad = 0, []
sims = {(pat, i): c for pat, i, pt, c in cells(sim)}
for pat, i, pt, c in cells(budget):
    if sims[(pat, i)]["source"][i] == "s" and c["source"][i] == "m":
        fell += 1
        if c["gpu_us"][i] != models[(pat, i)]:
            bad.append((pat, pt))
    elif c["source"][i] != sims[(pat, i)]["source"][i] or c["gpu_us"][i] != sims[(pat, i)]["gpu_us"][i]:
        bad.append((pat, pt, "changed"))
print(("ok   " if fell and not bad else "FAIL ") +
      f"--max-events 1000: {fell} simulator cells fall back to the model's time, marked 'm'" + (f": {bad[:3]}" if bad else ""))
EOF
    python3 "$tmp/check.py" "$tmp/j1.json" "$tmp/model.json" "$tmp/budget.json" >"$tmp/py.out" 2>&1 || echo "FAIL check.py: $(tail -1 "$tmp/py.out")" >>"$tmp/py.out"
    while IFS= read -r line; do
        case $line in
        "ok   "*) ok "${line#ok   }" ;;
        *) bad "${line#FAIL }" ;;
        esac
    done <"$tmp/py.out"
else
    echo "note: python3 is not installed; the cells' sources are not checked"
fi

# --anchor: the compare-and-swap patterns' model cells take their anchors'
# ratio by default ('a'), none under --anchor none, and the flag needs the
# simulator
K=(--engine sim "${C[@]}" --only cas-append --sim-max-n 2^12 --sim-wg 64 --sim-smem 0 --max-events 2e6 --no-progress -j 2)
"$A" export "${K[@]}" --format csv >"$tmp/anch.csv" 2>/dev/null
"$A" export "${K[@]}" --anchor none --format csv >"$tmp/none.csv" 2>/dev/null
check "--anchor: the default anchors cas-append's model cells, keeping the simulator's" \
    "grep -q ',anchored,' $tmp/anch.csv && grep -q ',sim,' $tmp/anch.csv && ! grep -q ',model,' $tmp/anch.csv"
check "--anchor none: model cells stay the model's" "! grep -q ',anchored,' $tmp/none.csv && grep -q ',model,' $tmp/none.csv"
check "--anchor: the simulator's cells are the same either way" \
    "[ \"\$(grep -c ',sim,' $tmp/anch.csv)\" = \"\$(grep -c ',sim,' $tmp/none.csv)\" ]"
expect "--anchor without --engine sim" "need --engine sim" "$A" export "${C[@]}" --anchor none
expect "--anchor with an unknown pattern" "unknown pattern 'nope'" "$A" export "${K[@]}" --anchor nope

finish "export --engine sim"
