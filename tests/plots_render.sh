#!/usr/bin/env bash
# plots_render.sh - every plot script runs on the stored data and yields
# PNG and SVG images of the expected size, and every series it draws has
# data points, checked on its data files:
#   contention.gp, predicted_vs_measured.gp   validate/data/h100.csv, predicted
#                                 by the model (when it answers) and the
#                                 simulator under a small event budget
#   decision_map.gp               `atomsim export`'s cost table (schema 2,
#                                 pinned to wg=256 smem_per_wg=0: one cell per
#                                 (x, n)), and small synthetic tables in the
#                                 documented columns of schema 2 and 1; a
#                                 missing table is skipped with one line
#   whatif.gp (plots/studies.sh)  the shipped studies at n = 2^10; series
#                                 that differ by a varied key (l2.slice_count)
#                                 have it as KEY=VALUE in the legend and a line
#                                 type and colour per value (series.sh's gpi and
#                                 the styles whatif.gp draws); a series with two
#                                 rows at one x is refused
#   the decision map's thresholds the seed rule's 10% line and 5% penalty line
#                                 at their true positions (S = 0.1, K = 10;
#                                 S = 0.05, K = 20), not at a cell edge
#   make plots                    PLOT_MAX_EVENTS reaches prep_validation.sh and
#                                 its message names that variable; the recipe
#                                 numbers its steps (make -n)
#   answers.sh                    its three sections
# Needs gnuplot (make plots installs it); skipped with a note without it.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL $*"; fail=1; }
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "note: gnuplot is not installed (make plots installs it); plot scripts not checked"
    exit 0
fi

# image OUT W H: OUT.png is W x H pixels, OUT.svg says so too
image() {
    local f=$1 w=$2 h=$3 dims
    [ -s "$f.png" ] || { bad "$f.png missing"; return; }
    dims=$(od -An -tu1 -j16 -N8 "$f.png" | awk '{ printf "%d %d", $1*16777216+$2*65536+$3*256+$4, $5*16777216+$6*65536+$7*256+$8 }')
    [ "$dims" = "$w $h" ] || bad "$f.png is $dims, want $w $h"
    [ -s "$f.svg" ] || { bad "$f.svg missing"; return; }
    grep -q "width=\"$w\" height=\"$h\"" "$f.svg" || bad "$f.svg does not say $w x $h"
}
# points FILE COLUMN: numeric values in a whitespace data file's column
points() { awk -v c="$2" '!/^#/ && NF >= c && $c ~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/ { n++ } END { print n + 0 }' "$1"; }
# gpi FILE NAME: a variable's value in a gnuplot include
gpi() { sed -n "s/^$2 = \"\{0,1\}\([^\"]*\)\"\{0,1\}$/\1/p" "$1"; }
gp() { gnuplot -e "$1" "$2" 2>"$tmp/gp.err" || bad "$2 failed: $(head -2 "$tmp/gp.err")"; [ -s "$tmp/gp.err" ] && bad "$2 wrote on stderr: $(head -2 "$tmp/gp.err")"; }

engines=sim
if "$A" run --engine model --pattern counter --n 1024 >/dev/null 2>&1; then engines=sim,model; fi
d=$tmp/data
mkdir -p "$d"

# ---- contention and predicted-vs-measured, on the stored H100 dataset ----
ATOMSIM=$A ENGINES=$engines PLOT_MAX_EVENTS=2e5 bash plots/prep_validation.sh h100 "$d" >"$tmp/pv.out" 2>"$tmp/err" ||
    bad "prep_validation.sh: $(head -1 "$tmp/err")"
# the budget is PLOT_MAX_EVENTS, make plots' variable, and the note of the
# rows it skips names that variable (it named MAX_EVENTS, which make plots
# never read)
[ "$(cat "$d/h100-predicted.csv.engines")" = "$engines 2e5" ] || bad "prep_validation.sh: PLOT_MAX_EVENTS=2e5 not used: $(cat "$d/h100-predicted.csv.engines")"
if grep -q 'skipped' "$tmp/pv.out"; then
    grep -q 'budget of 2e5 events skipped (make plots PLOT_MAX_EVENTS=2e9 runs them' "$tmp/pv.out" ||
        bad "prep_validation.sh: the skipped rows' note does not name make plots' PLOT_MAX_EVENTS: $(head -1 "$tmp/pv.out")"
else
    bad "prep_validation.sh: no row over a 2e5 budget (the note is not checked)"
fi
mk=$(make -n plots PLOT_MAX_EVENTS=3e5 2>/dev/null)
printf '%s\n' "$mk" | grep -q 'PLOT_MAX_EVENTS=3e5 bash plots/prep_validation.sh' || bad "make plots does not hand PLOT_MAX_EVENTS to prep_validation.sh"
printf '%s\n' "$mk" | grep -q 'echo "plots: step $k/$n: $\*" >&2' || bad "make plots does not number its steps on stderr"
g=$d/h100-contention.gpi
i=0
for p in $(gpi "$g" patterns); do
    i=$((i + 1))
    f=$d/h100-contention/$p.dat
    for s in meas:2 sim:5 model:6; do
        flag=$(gpi "$g" "has_${s%:*}" | cut -d' ' -f"$i")
        n=$(points "$f" "${s#*:}")
        if [ "$flag" = 1 ] && [ "$n" = 0 ]; then bad "contention: $p draws ${s%:*} without points"; fi
        if [ "$flag" = 0 ] && [ "$n" != 0 ]; then bad "contention: $p has ${s%:*} points it does not draw"; fi
    done
done
[ "$i" = 12 ] || bad "contention: $i panels, want 12"
[ "$(gpi "$g" has_meas)" = "1 1 1 1 1 1 1 1 1 1 1 1" ] || bad "contention: a pattern without measured points: $(gpi "$g" has_meas)"
gp "gpu='h100'; datadir='$d'; out='$tmp/contention'" plots/contention.gp
image "$tmp/contention" 1800 1350

v=$d/h100-pvm.gpi
for e in sim:12 model:13; do
    for pi in $(gpi "$v" "${e%:*}_patterns"); do
        n=$(awk -F, -v p="$pi" -v c="${e#*:}" 'NR > 1 && $14 == p && $c != "NaN" { n++ } END { print n + 0 }' "$d/h100-joined.csv")
        [ "$n" -gt 0 ] || bad "predicted_vs_measured: ${e%:*} draws pattern $pi without points"
    done
done
[ -n "$(gpi "$v" model_patterns)" ] || [ "$engines" = sim ] || bad "predicted_vs_measured: no model points"
gp "gpu='h100'; datadir='$d'; out='$tmp/pvm'" plots/predicted_vs_measured.gp
image "$tmp/pvm" 1800 800

# ---- decision map: synthetic tables in the documented columns, and export's ----
# schema 2: every wg and smem_per_wg, the cost rule's decision (here with a
# data-movement term the bare costs lack) and the seed rule's verdict
{
    echo "# schema_version: 2"
    echo "pattern,n,wg,smem_per_wg,selectivity,bins,hot,gpu_us,cpu_us,density_fraction,decision,seed_decision"
    for n in 1024 65536 4194304; do
        for wg in 256 512; do
            for sm in 0 8192; do
                for s in 0 0.01 0.1 0.5 1; do
                    awk -v n=$n -v s=$s -v wg=$wg -v sm=$sm 'BEGIN { g = 5 + n * s / 1e4 + wg / 1e3 + sm / 1e5; c = 2 + n / 2e4; m = n / 1e5
                        printf "compaction,%d,%d,%d,%s,256,0,%g,%g,%s,%s,%s\n", n, wg, sm, s, g, c, s, (g <= c + m) ? "gpu" : "cpu", (g * (1 + (s > 0.05)) <= c + m && s <= 0.1) ? "gpu" : "cpu" }'
                done
                for k in 1 4 16 256; do
                    for h in 0 0.5; do
                        awk -v n=$n -v k=$k -v h=$h -v wg=$wg -v sm=$sm 'BEGIN { f = h + (1 - h) / k; g = 5 + n * f / 1e5 + wg / 1e3 + sm / 1e5; c = 2 + n / 2e4; m = n / 1e5
                            printf "histogram,%d,%d,%d,1,%d,%s,%g,%g,%g,%s,%s\n", n, wg, sm, k, h, g, c, f, (g <= c + m) ? "gpu" : "cpu", (g <= c + m && f <= 0.1) ? "gpu" : "cpu" }'
                    done
                done
            done
        done
    done
} >"$tmp/table2.csv"
# its provenance beside it, as export writes it (FILE.meta.json)
printf '{\n  "rule": "cost",\n  "density_inhibit": 0.1,\n  "inhibit_cas": true\n}\n' >"$tmp/table2.csv.meta.json"
# schema 1: no shape axes, one decision (the seed rule's), bare costs
{
    echo "# density_inhibit: 0.1"
    echo "pattern,n,selectivity,bins,gpu_us,cpu_us,density_fraction,decision"
    for n in 1024 65536 4194304; do
        for s in 0 0.01 0.1 0.5 1; do
            awk -v n=$n -v s=$s 'BEGIN { g = 5 + n * s / 1e4; c = 2 + n / 2e4; printf "compaction,%d,%s,256,%g,%g,%s,%s\n", n, s, g, c, s, (g < c && s <= 0.1) ? "gpu" : "cpu" }'
        done
        for k in 1 4 16 256; do
            awk -v n=$n -v k=$k 'BEGIN { g = 5 + n / k / 1e3; c = 2 + n / 2e4; printf "histogram,%d,1,%d,%g,%g,%g,%s\n", n, k, g, c, 1 / k, (g < c && 1 / k <= 0.1) ? "gpu" : "cpu" }'
        done
    done
} >"$tmp/table1.csv"
pin="wg=256 smem_per_wg=0"
tables=("$tmp/table2.csv|$pin|hot=0 $pin|seed_decision" "$tmp/table1.csv|||decision")
if "$A" export --config configs/h100.ini --format csv --only compaction,histogram --output "$tmp/export.csv" 2>/dev/null; then
    tables+=("$tmp/export.csv|$pin|hot=0 $pin|seed_decision")
fi
for entry in "${tables[@]}"; do
    IFS='|' read -r t fc fh by <<<"$entry"
    # shellcheck disable=SC2086 # the filters are words
    bash plots/prep_decisions.sh "$t" "$d/dm-c" compaction selectivity $fc || bad "prep_decisions compaction on $t"
    # shellcheck disable=SC2086
    bash plots/prep_decisions.sh "$t" "$d/dm-h" histogram bins $fh || bad "prep_decisions histogram on $t"
    for x in c h; do
        pat=$([ $x = c ] && echo compaction || echo histogram)
        cells=$(gpi "$d/dm-$x.gpi" cells)
        [ "$cells" -gt 0 ] && [ "$cells" = "$(points "$d/dm-$x.dat" 1)" ] || bad "decision map $x: $cells cells in the gpi, $(points "$d/dm-$x.dat" 1) in the data ($t)"
        # one cell per (x, n), and every (x, n) of the grid
        dup=$(awk '!/^#/ { print $1, $4 }' "$d/dm-$x.dat" | sort | uniq -d | wc -l)
        grid=$(awk '!/^#/ { xs[$1]; ns[$4] } END { nx = 0; nn = 0; for (i in xs) nx++; for (i in ns) nn++; print nx * nn }' "$d/dm-$x.dat")
        [ "$dup" = 0 ] && [ "$grid" = "$cells" ] || bad "decision map $x: $dup cells given twice, $cells cells of a $grid grid ($t)"
        gf=$(awk '!/^#/ && $7 == 1 { n++ } END { print n + 0 }' "$d/dm-$x.dat")
        [ "$gf" = "$(gpi "$d/dm-$x.gpi" gpu_faster)" ] || bad "decision map $x: gpu_faster ($t)"
        [ "$(gpi "$d/dm-$x.gpi" decided_by)" = "$by" ] || bad "decision map $x: decided by $(gpi "$d/dm-$x.gpi" decided_by), want $by ($t)"
        # the faster side and the seed verdict are the table's own columns
        # (decision and seed_decision under "# rule: cost"), on the pinned rows
        if [ "$by" = seed_decision ]; then
            want=$(awk -F, -v P=$pat '/^#/ { next } !h { h = 1; for (i = 1; i <= NF; i++) ix[$i] = i; next }
                $ix["pattern"] == P && $ix["wg"] == 256 && $ix["smem_per_wg"] == 0 && $ix["hot"] == 0 && ($ix[P == "compaction" ? "selectivity" : "bins"] + 0) > 0 {
                    g += $ix["decision"] == "gpu"; o += $ix["decision"] != $ix["seed_decision"] } END { print g + 0, o + 0 }' "$t")
            [ "$want" = "$gf $(gpi "$d/dm-$x.gpi" overridden)" ] || bad "decision map $x: gpu_faster and overridden are $gf $(gpi "$d/dm-$x.gpi" overridden), the table says $want ($t)"
            [ "$(gpi "$d/dm-$x.gpi" overridden)" -gt 0 ] || bad "decision map $x: the seed rule never departs from the faster side on $t"
        fi
        rp=$(gpi "$d/dm-$x.gpi" rule_points)
        [ "$rp" = "$(points "$d/dm-$x-rule.dat" 1)" ] || bad "decision map $x: rule points"
        [ "$rp" -gt 0 ] || bad "decision map $x: the 10% rule has no points on $t"
        # the rule's line where its density crosses 0.1: S = 0.1 (fraction S),
        # K = 10 (fraction 1/K at hot = 0), not at the cell edge between the
        # grid's values (0.14 between 0.1 and 0.2, 11.3 between 8 and 16)
        want=$([ $x = c ] && echo 0.1 || echo 10)
        [ "$(gpi "$d/dm-$x.gpi" rule_x)" = "$want" ] || bad "decision map $x: the 10% rule is drawn at $(gpi "$d/dm-$x.gpi" rule_x), its boundary is at $want ($t)"
        [ "$(awk '!/^#/ && NF == 2 { print $1 }' "$d/dm-$x-rule.dat" | sort -u | tr '\n' ' ')" = "$want " ] || bad "decision map $x: the rule's points are not all at $want ($t)"
        # the penalty's start: in the sidecar (export --output), or a '#' line of an older table
        if grep -qs '"density_penalty_start": 0.05' "$t.meta.json" || grep -q '^# density_penalty_start: 0.05' "$t"; then
            penalty_checked=$((${penalty_checked:-0} + 1))
            want=$([ $x = c ] && echo 0.05 || echo 20)
            [ "$(gpi "$d/dm-$x.gpi" penalty_x)" = "$want" ] && [ "$(gpi "$d/dm-$x.gpi" penalty_points)" -gt 0 ] ||
                bad "decision map $x: the 5% penalty line is at '$(gpi "$d/dm-$x.gpi" penalty_x)', its boundary is at $want ($t)"
        fi
    done
    gp "out='$tmp/dm'; panels=2; title='test'; d1='$d/dm-c'; d2='$d/dm-h'" plots/decision_map.gp
    image "$tmp/dm" 1700 700
done
[ "${penalty_checked:-0}" -gt 0 ] || bad "the 5% penalty line was checked on no table (export's sidecar names density_penalty_start)"
# a schema-2 table whose shape axes are not pinned has many rows a cell: refused
rc=0
bash plots/prep_decisions.sh "$tmp/table2.csv" "$d/x" compaction selectivity 2>"$tmp/err" || rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "two compaction rows" "$tmp/err" || bad "unpinned shape axes: exit $rc, $(head -1 "$tmp/err")"
rc=0
bash plots/prep_decisions.sh "$tmp/none.csv" "$d/x" compaction selectivity 2>"$tmp/err" || rc=$?
[ $rc = 3 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "no cost table" "$tmp/err" || bad "a missing cost table: exit $rc, $(wc -l <"$tmp/err") lines"

# ---- the studies' plots, at n = 2^10 ----
sd=$tmp/studies
for s in configs/studies/*.ini; do
    "$A" study "$s" --n 2^10 --engine "$engines" --out-dir "$sd" 2>"$tmp/err" || bad "$s: $(head -1 "$tmp/err")"
done
mkdir -p "$tmp/costs"
for c in configs/h100.ini; do "$A" export --config "$c" --format csv --output "$tmp/costs/h100-costs.csv" 2>/dev/null || rm -f "$tmp/costs/h100-costs.csv"; done
PLOT_STYLES=$tmp/styles bash plots/studies.sh "$sd" "$d/series" "$tmp/img" "$tmp/costs" 2>"$tmp/err" || bad "studies.sh: $(head -2 "$tmp/err")"
[ -s "$tmp/err" ] && bad "studies.sh wrote on stderr: $(head -2 "$tmp/err")"
image "$tmp/img/study-histogram-bins" 1800 650
image "$tmp/img/study-compaction-selectivity" 900 650 # one n, one panel
image "$tmp/img/study-subword-cas" 1800 650
image "$tmp/img/whatif-l2" 1800 1100
# the study legends mark uncalibrated configs (gpu.trust), and only those
grep -q 'a100(uncalibrated)/' "$d/series/hb-global.gpi" || bad "hb-global: the A100's series is not marked uncalibrated: $(grep '^series' "$d/series/hb-global.gpi")"
grep -q 'h100(uncalibrated)' "$d/series/hb-global.gpi" && bad "hb-global: the calibrated H100 is marked uncalibrated"
for f in "$d"/series/*.gpi; do
    b=${f%.gpi}
    ns=$(gpi "$f" nseries)
    [ "$ns" -gt 0 ] || bad "$b: no series"
    blocks=$(grep -c '^# series ' "$b.dat")
    [ "$blocks" = "$ns" ] || bad "$b: $blocks blocks, $ns series"
    k=0
    for want in $(gpi "$f" points); do
        k=$((k + 1))
        got=$(awk -v k="$k" '/^# series / { b++ } b == k && !/^#/ && NF == 2 { n++ } END { print n + 0 }' "$b.dat")
        [ "$want" -gt 0 ] && [ "$got" = "$want" ] || bad "$b: series $k has $got points (gpi: $want)"
    done
done
# series that differ by a varied key: KEY=VALUE in the legend, one line type
# and one colour per value (both engines of a value share them); configs
# keep a colour each and a line type per engine
for w in whatif-slices:l2.slice_count whatif-rmw:l2.same_address_cycles whatif-merging:coalesce.merge_rule; do
    f=$d/series/${w%%:*}.gpi key=${w#*:}
    [ "$(gpi "$f" varied)" = "$key" ] || bad "${w%%:*}: varied is '$(gpi "$f" varied)', want $key"
    paste <(gpi "$f" series | tr ' ' '\n') <(gpi "$f" dash | tr ' ' '\n') <(gpi "$f" colour | tr ' ' '\n') >"$tmp/styles.tsv"
    awk -v k="$key" -F'\t' '{ v = $1; sub(/\/[^\/]*$/, "", v)
        if (index(v, k "=") != 1) { print "a series is not named " k "=VALUE: " $1; bad = 1 }
        if ((v in dash) && (dash[v] != $2 || col[v] != $3)) { print v ": two line types or colours"; bad = 1 }
        dash[v] = $2; col[v] = $3; if (!($2 in dv)) { dv[$2] = 1; nd++ } if (!($3 in cv)) { cv[$3] = 1; nc++ }; nv += !(v in seen); seen[v] = 1 }
        END { if (nv < 2 || nd != nv || nc != nv) { print nv " values, " nd " line types, " nc " colours"; bad = 1 } exit bad }' \
        "$tmp/styles.tsv" >"$tmp/why" || bad "${w%%:*}: the varied key's values are not told apart: $(head -1 "$tmp/why")"
done
[ "$(gpi "$d/series/hb-global.gpi" varied)" = "" ] && [ "$(gpi "$d/series/hb-global.gpi" dash | cut -d' ' -f1-2)" = "1 2" ] &&
    [ "$(gpi "$d/series/hb-global.gpi" colour | cut -d' ' -f1-3)" = "1 1 2" ] || bad "hb-global: configs should keep a colour each, engines a line type"
# what gnuplot drew: whatif.gp's styles, one line type per slice count
awk '$6 ~ /^l2\.slice_count=/ { v = $6; sub(/\/.*/, "", v); if ((v in dt) && dt[v] != $4) bad = 1; dt[v] = $4 } END { for (v in dt) { n++; if (!(dt[v] in u)) { u[dt[v]] = 1; m++ } } exit !(n >= 2 && m == n && !bad) }' "$tmp/styles" ||
    bad "whatif-l2: gnuplot drew the slice counts with the same line type: $(grep 'l2.slice_count' "$tmp/styles" | head -3 | tr '\n' ';')"
# a column that varies but is neither a series nor pinned would zigzag: refused
rc=0
bash plots/series.sh "$sd/whatif-l2.csv" "$tmp/zig" bins time_us engine pattern=histogram 2>"$tmp/err" || rc=$?
[ $rc = 1 ] && grep -q 'has two rows at bins' "$tmp/err" || bad "series.sh: a series with two rows at one x: exit $rc, $(head -1 "$tmp/err")"

bash plots/answers.sh "$sd" "$tmp/costs" >"$tmp/answers.md" || bad "answers.sh exited $?"
[ "$(grep -c '^## ' "$tmp/answers.md")" = 3 ] || bad "answers.md: $(grep -c '^## ' "$tmp/answers.md") sections"
grep -q '^| h100 | sim | ' "$tmp/answers.md" || bad "answers.md has no h100 row"

[ $fail = 0 ] && echo "ok   every plot script renders PNG and SVG of the expected size; every drawn series has points"
exit $fail
