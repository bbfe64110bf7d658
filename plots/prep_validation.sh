#!/usr/bin/env bash
# prep_validation.sh - the data files of contention.gp and
# predicted_vs_measured.gp for one measured dataset.
#
#   plots/prep_validation.sh GPU OUTDIR
#
# Reads validate/data/GPU.csv, predicts every measured configuration with
# `atomsim sweep --points` (config configs/GPU.ini when it exists, the
# defaults otherwise; engines from ENGINES, default sim and, when it runs,
# model) and writes into OUTDIR:
#   GPU-predicted.csv       the sweep's rows (and GPU-predicted.log, its stderr);
#                           kept while newer than the dataset, atomsim and the
#                           config and made with the same engines and budget
#   GPU-joined.csv          one row per measured configuration (check ok):
#                           pattern,n,wg,selectivity,bins,hot,addresses,
#                           smem_per_wg,measured_us,measured_min_us,
#                           measured_max_us,sim_us,model_us,pattern_index
#                           (NaN where an engine has no row)
#   GPU-contention/P.dat    per pattern P: "x measured min max sim model" along
#                           its contention axis (selectivity, bins, addresses
#                           or wg), other flags at the contract's defaults (no
#                           shared memory beyond the pattern's own need), at
#                           the n with the most such rows; x = 0 left out (log axis)
#   GPU-contention.gpi      gnuplot include: patterns, axes, n and which series
#                           each panel has points for
#   GPU-pvm.gpi             gnuplot include: patterns with sim / model points,
#                           and each engine's error summary
# Environment: ATOMSIM (build/atomsim), PLOT_MAX_EVENTS (the simulator's
# event budget per row, default 1e6: rows above it are skipped and counted,
# so that the CAS loops at tens of thousands of contenders do not take
# minutes; `make plots` takes the variable under the same name),
# JOBS (worker processes, default all CPUs), ENGINES (e.g. "sim").
set -eu
budget=${PLOT_MAX_EVENTS:-1e6}
[ $# = 2 ] || { echo "usage: plots/prep_validation.sh GPU OUTDIR" >&2; exit 2; }
gpu=$1 out=$2
A=${ATOMSIM:-build/atomsim}
measured=validate/data/$gpu.csv
[ -f "$measured" ] || { echo "prep_validation: no measured dataset $measured" >&2; exit 1; }
mkdir -p "$out/$gpu-contention"
cfg=()
if [ -f "configs/$gpu.ini" ]; then cfg=(--config "configs/$gpu.ini"); fi
if [ -z "${ENGINES:-}" ]; then
    ENGINES=sim
    if "$A" run --engine model --pattern counter --n 1024 >/dev/null 2>&1; then ENGINES=sim,model; fi
fi
jobs=()
if [ -n "${JOBS:-}" ]; then jobs=(-j "$JOBS"); fi

pred=$out/$gpu-predicted.csv
fresh=1
for dep in "$measured" "$A" ${cfg[1]:+"${cfg[1]}"}; do [ "$pred" -nt "$dep" ] || fresh=0; done
if [ "$fresh" = 0 ] || [ "$(cat "$pred.engines" 2>/dev/null)" != "$ENGINES $budget" ]; then
    rc=0
    "$A" sweep --points "$measured" "${cfg[@]}" --engine "$ENGINES" -p "sim.max_events=$budget" \
        --keep-going --no-progress "${jobs[@]}" >"$pred.tmp" 2>"$out/$gpu-predicted.log" || rc=$?
    if [ "$rc" -gt 1 ]; then
        echo "prep_validation: atomsim sweep failed (exit $rc):" >&2
        head -3 "$out/$gpu-predicted.log" >&2
        exit 1
    fi
    mv "$pred.tmp" "$pred"
    echo "$ENGINES $budget" >"$pred.engines"
fi
skipped=$(grep -c "event budget" "$out/$gpu-predicted.log" || true)
other=$(grep -vc "event budget" "$out/$gpu-predicted.log" || true)
if [ "$other" -gt 0 ]; then
    echo "prep_validation: $other rows failed for another reason than the event budget:" >&2
    grep -v "event budget" "$out/$gpu-predicted.log" | head -3 >&2
    exit 1
fi
if [ "$skipped" -gt 0 ]; then
    echo "$gpu: $skipped simulated rows over the plots' budget of $budget events skipped (make plots PLOT_MAX_EVENTS=2e9 runs them; list in $out/$gpu-predicted.log)"
fi

awk -F, -v out="$out" -v gpu="$gpu" '
function key(a, b, c, d, e, f, g, h) {
    return a "|" sprintf("%.9g|%.9g|%.9g|%.9g|%.9g|%.9g|%.9g", b, c, d, e, f, g, h)
}
function cols(   i) { delete ix; for (i = 1; i <= NF; i++) ix[$i] = i }
function k() { return key($ix["pattern"], $ix["n"], $ix["wg"], $ix["selectivity"], $ix["bins"], $ix["hot"], $ix["addresses"], $ix["smem_per_wg"]) }
BEGIN {
    np = split("store counter counter-aggregated compaction bitmask cas-append histogram histogram-shared histogram-u8-cas histogram-u16-cas distinct-lines reduce", pats, " ")
    for (i = 1; i <= np; i++) pidx[pats[i]] = i
    for (i = 1; i <= 6; i++) axis[pats[i]] = "selectivity"
    for (i = 7; i <= 10; i++) axis[pats[i]] = "bins"
    axis["distinct-lines"] = "addresses"; axis["reduce"] = "wg"
}
FNR == 1 { file++ }
/^#/ { next }
file == 1 && !h1 { h1 = 1; cols(); next }
file == 1 {   # predictions
    kk = k()
    if ($ix["engine"] == "model") model[kk] = $ix["time_us"]; else sim[kk] = $ix["time_us"]
    next
}
file == 2 && !h2 { h2 = 1; cols(); next }
file == 2 {   # measurements, in their order
    if ($ix["check"] != "ok") next
    kk = k(); m++
    row[m] = kk; pat[m] = $ix["pattern"]
    for (c in ix) val[m, c] = $ix[c]
}
END {
    joined = out "/" gpu "-joined.csv"
    print "pattern,n,wg,selectivity,bins,hot,addresses,smem_per_wg,measured_us,measured_min_us,measured_max_us,sim_us,model_us,pattern_index" > joined
    for (i = 1; i <= m; i++) {
        kk = row[i]; p = pat[i]
        s = (kk in sim) ? sim[kk] : "NaN"; mo = (kk in model) ? model[kk] : "NaN"
        printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%d\n", p, val[i, "n"], val[i, "wg"], val[i, "selectivity"], val[i, "bins"],
            val[i, "hot"], val[i, "addresses"], val[i, "smem_per_wg"], val[i, "time_us_median"], val[i, "time_us_min"],
            val[i, "time_us_max"], s, mo, pidx[p] > joined
        if (s != "NaN") { psim[p]++; es[++ns] = s / val[i, "time_us_median"] }
        if (mo != "NaN") { pmod[p]++; em[++nm] = mo / val[i, "time_us_median"] }
        # on the contention axis: every other flag at the contract default
        a = axis[p]
        own = (p == "histogram-shared") ? 4 * val[i, "bins"] : (p == "reduce") ? 4 : 0
        if (val[i, "smem_per_wg"] + 0 > own || val[i, "hot"] + 0 != 0) continue
        if (a != "wg" && val[i, "wg"] + 0 != 256) continue
        if (a == "wg" && val[i, "n"] + 0 != 1048576) continue
        if (val[i, a] + 0 <= 0) continue
        on[p, val[i, "n"]]++
        if (!((p, val[i, "n"]) in seen)) { seen[p, val[i, "n"]] = 1; ns_[p]++; nlist[p, ns_[p]] = val[i, "n"] }
        cand[i] = 1
    }
    gpi = out "/" gpu "-contention.gpi"
    names = ""; axes = ""; nvals = ""; hm = ""; hs = ""; hmo = ""
    for (pi = 1; pi <= np; pi++) {
        p = pats[pi]; best = ""; bc = 0
        for (j = 1; j <= ns_[p]; j++) {   # the n with most rows; ties: nearest 2^20
            nn = nlist[p, j]; c = on[p, nn]
            if (c > bc || (c == bc && (nn - 1048576) ^ 2 < (best - 1048576) ^ 2)) { bc = c; best = nn }
        }
        f = out "/" gpu "-contention/" p ".dat"
        printf "# %s: %s on the %s axis at n = %s (%s, measured and predicted)\n# x measured_us min_us max_us sim_us model_us\n", gpu, p, axis[p], best, p > f
        cnt = 0; cs = 0; cm = 0; delete xs; delete lines
        for (i = 1; i <= m; i++) if (cand[i] && pat[i] == p && val[i, "n"] == best) {
            kk = row[i]; s = (kk in sim) ? sim[kk] : "NaN"; mo = (kk in model) ? model[kk] : "NaN"
            cnt++; xs[cnt] = val[i, axis[p]] + 0
            lines[cnt] = sprintf("%s %s %s %s %s %s", val[i, axis[p]], val[i, "time_us_median"], val[i, "time_us_min"], val[i, "time_us_max"], s, mo)
            cs += (s != "NaN"); cm += (mo != "NaN")
        }
        for (a2 = 2; a2 <= cnt; a2++) {   # sort by x
            kx = xs[a2]; kl = lines[a2]
            for (b = a2 - 1; b >= 1 && xs[b] > kx; b--) { xs[b + 1] = xs[b]; lines[b + 1] = lines[b] }
            xs[b + 1] = kx; lines[b + 1] = kl
        }
        for (a2 = 1; a2 <= cnt; a2++) print lines[a2] > f
        close(f)
        names = names " " p; axes = axes " " axis[p]; nvals = nvals " " (best == "" ? 0 : best)
        hm = hm " " (cnt > 0); hs = hs " " (cs > 0); hmo = hmo " " (cm > 0)
    }
    printf "# %s: the panels of contention.gp (1: the series has points)\n", gpu > gpi
    printf "patterns = \"%s\"\naxes = \"%s\"\nnvals = \"%s\"\nhas_meas = \"%s\"\nhas_sim = \"%s\"\nhas_model = \"%s\"\n",
        substr(names, 2), substr(axes, 2), substr(nvals, 2), substr(hm, 2), substr(hs, 2), substr(hmo, 2) >> gpi
    pv = out "/" gpu "-pvm.gpi"
    sl = ""; ml = ""
    for (pi = 1; pi <= np; pi++) { if (psim[pats[pi]]) sl = sl " " pi; if (pmod[pats[pi]]) ml = ml " " pi }
    printf "# %s: the series of predicted_vs_measured.gp\npatterns = \"%s\"\nsim_patterns = \"%s\"\nmodel_patterns = \"%s\"\n", gpu, substr(names, 2), substr(sl, 2), substr(ml, 2) > pv
    summary("sim", es, ns, pv); summary("model", em, nm, pv)
    printf "measured = %d\n", m >> pv
}
function summary(name, e, n, f,   i, j, t, d, w2) {
    for (i = 1; i <= n; i++) { d[i] = (e[i] > 1 ? e[i] - 1 : 1 / e[i] - 1); w2 += (e[i] <= 2 && e[i] >= 0.5) }
    for (i = 2; i <= n; i++) { t = d[i]; for (j = i - 1; j >= 1 && d[j] > t; j--) d[j + 1] = d[j]; d[j + 1] = t }
    printf "%s_points = %d\n%s_median_factor = %.3f\n%s_within_2x = %.3f\n", name, n, name, n ? 1 + d[int((n + 1) / 2)] : 0, name, n ? w2 / n : 0 >> f
}' "$out/$gpu-predicted.csv" "$measured"
