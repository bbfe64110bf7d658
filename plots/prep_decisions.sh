#!/usr/bin/env bash
# prep_decisions.sh - one panel's data for decision_map.gp from the
# dispatcher's cost table in CSV (`atomsim export --format csv`).
#
#   plots/prep_decisions.sh TABLE.csv OUT PATTERN AXIS [COL=VALUE ...]
#
# TABLE.csv: a header with at least the columns
#   pattern, n, AXIS (selectivity or bins), gpu_us, cpu_us,
#   density_fraction, decision (gpu|cpu)
# and, in schema 2, seed_decision (gpu|cpu), the seed rule's verdict.
# The seed rule's threshold (density_inhibit; 0.1 when absent) and the
# rule of the decision column (rule) come from TABLE.csv.meta.json, which
# `atomsim export --format csv --output TABLE.csv` writes beside it; a
# table written before the sidecar carries them as '#' lines above its
# header ("# density_inhibit: F", "# rule: R"), which are read too.
# Keeps PATTERN's rows that match every COL=VALUE and writes
#   OUT.dat       x xlo xhi n nlo nhi faster decided  (one cell each: 1 GPU,
#                 0 CPU; x <= 0 left out: log axis)
#   OUT-rule.dat  the seed rule's boundary: where density_fraction crosses
#                 density_inhibit along AXIS, one vertical segment per n
#                 (blank-line separated) at the crossing's true position,
#                 not at a cell edge: between two neighbouring cells the
#                 fraction is interpolated in log-log (exact for the
#                 fraction of compaction, S, and of a histogram, 1/K), so
#                 the line sits at S = 0.1 and K = 10 when the threshold is
#                 0.1
#   OUT-penalty.dat  the same for density_penalty_start (the seed's penalty
#                 from 5%), when the table names it
#   OUT.gpi       pattern, axis, inhibit, penalty_start, what `decided` is,
#                 the number of cells of each kind and the boundaries' x
#                 (rule_x, penalty_x: the distinct crossings, %.4g)
# faster: the side the cost rule takes (the decision column, data movement
# included) when the table says "# rule: cost", else gpu_us < cpu_us (the
# table's bare costs).  decided: seed_decision when the table has it (where
# seed 000's rule departs from the faster side), else decision.
# A schema-2 table holds every workgroup size and shared-memory size: the
# COL=VALUE filters must pin them (wg=256 smem_per_wg=0, and hot=0 for the
# histogram), and two rows at the same (x, n) fail (exit 1) rather than
# one of them silently winning.
# Exits 3 with one line on stderr when TABLE.csv is missing or has no rows
# for PATTERN (the caller skips the map), 1 when a column is missing or a
# cell is given twice.
set -eu
[ $# -ge 4 ] || { echo "usage: plots/prep_decisions.sh TABLE.csv OUT PATTERN AXIS [COL=VALUE ...]" >&2; exit 2; }
table=$1 out=$2 pattern=$3 axis=$4
shift 4
if [ ! -s "$table" ]; then
    echo "decision map: no cost table at $table (atomsim export --config configs/GPU.ini --format csv > $table); map skipped" >&2
    exit 3
fi
# the sidecar's keys, one a line as export writes them
meta_inhibit= meta_rule= meta_penalty=
if [ -f "$table.meta.json" ]; then
    meta_inhibit=$(sed -n 's/^ *"density_inhibit": *\([-+0-9.eE]*\),*$/\1/p' "$table.meta.json")
    meta_penalty=$(sed -n 's/^ *"density_penalty_start": *\([-+0-9.eE]*\),*$/\1/p' "$table.meta.json")
    meta_rule=$(sed -n 's/^ *"rule": *"\([a-z_]*\)",*$/\1/p' "$table.meta.json")
fi
awk -F, -v MI="$meta_inhibit" -v MP="$meta_penalty" -v MR="$meta_rule" -v P="$pattern" -v A="$axis" -v F="$*" -v out="$out" -v src="$table" '
function col(name) {
    if (!(name in ix)) { printf "prep_decisions: %s has no column \"%s\"\n", src, name > "/dev/stderr"; bad = 1; exit 1 }
    return ix[name]
}
function edges(v, n, lo, hi,   i) {
    for (i = 1; i <= n; i++) {
        lo[i] = (i > 1) ? sqrt(v[i - 1] * v[i]) : (n > 1 ? v[1] / sqrt(v[2] / v[1]) : v[1] / 2)
        hi[i] = (i < n) ? sqrt(v[i] * v[i + 1]) : (n > 1 ? v[n] * sqrt(v[n] / v[n - 1]) : v[n] * 2)
    }
}
function sortu(v, n,   i, j, t) {
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
}
# where fraction `t` falls between (x1, f1) and (x2, f2): log-log when all
# are positive, linear otherwise
function cross(x1, f1, x2, f2, t) {
    if (f1 == f2) return x1
    if (x1 > 0 && x2 > 0 && f1 > 0 && f2 > 0 && t > 0)
        return exp(log(x1) + (log(t) - log(f1)) * (log(x2) - log(x1)) / (log(f2) - log(f1)))
    return x1 + (t - f1) * (x2 - x1) / (f2 - f1)
}
# the boundary of threshold t along x in row j (n), into file f; returns
# the points written and adds the crossings to the list xl
function boundary(t, j, f,   i, x, xp, w, c) {
    w = 0
    for (i = 2; i <= nx; i++) {
        x = xv[i]; xp = xv[i - 1]
        if (!have[xp, nv[j]] || !have[x, nv[j]]) continue
        if ((frac[xp, nv[j]] > t) == (frac[x, nv[j]] > t)) continue
        c = cross(xp, frac[xp, nv[j]], x, frac[x, nv[j]], t)
        printf "%.10g %.10g\n%.10g %.10g\n\n", c, nl[j], c, nh[j] >> f
        w += 2
        c = sprintf("%.4g", c)
        if (!((f, c) in listed)) { listed[f, c] = 1; xlist[f] = xlist[f] (xlist[f] == "" ? "" : " ") c }
    }
    return w
}
BEGIN { inhibit = (MI != "") ? MI + 0 : 0.1; penalty = (MP != "") ? MP + 0 : -1; rule = MR }
/^# *density_inhibit:/ { inhibit = $0; sub(/.*: */, "", inhibit); inhibit += 0; next }
/^# *density_penalty_start:/ { penalty = $0; sub(/.*: */, "", penalty); penalty += 0; next }
/^# *rule:/ { rule = $0; sub(/.*: */, "", rule); next }
/^#/ { next }
!header {
    header = 1
    for (i = 1; i <= NF; i++) ix[$i] = i
    cp = col("pattern"); cn = col("n"); cx = col(A); cg = col("gpu_us"); cc = col("cpu_us")
    cf = col("density_fraction"); cd = col("decision")
    by = ("seed_decision" in ix) ? "seed_decision" : "decision"; cs = col(by)
    cost = (rule == "cost")
    nf = split(F, fl, " ")
    for (i = 1; i <= nf; i++) {
        eq = index(fl[i], "=")
        if (eq < 2) { printf "prep_decisions: filter \"%s\" is not COL=VALUE\n", fl[i] > "/dev/stderr"; bad = 1; exit 1 }
        fc[i] = col(substr(fl[i], 1, eq - 1)); fv[i] = substr(fl[i], eq + 1)
    }
    next
}
$cp != P { next }
{
    for (i = 1; i <= nf; i++) if ($(fc[i]) + 0 != fv[i] + 0) next
    x = $cx + 0; n = $cn + 0
    if (x <= 0) next
    if (have[x, n]) {
        printf "prep_decisions: %s: two %s rows at %s=%g n=%g; pin the other axes (e.g. wg=256 smem_per_wg=0)\n", src, P, A, x, n > "/dev/stderr"
        bad = 1; exit 1
    }
    if (!(x in xs)) { xs[x] = 1; xv[++nx] = x }
    if (!(n in ns)) { ns[n] = 1; nv[++nn] = n }
    faster[x, n] = cost ? ($cd == "gpu") : ($cg + 0 < $cc + 0); decided[x, n] = ($cs == "gpu"); frac[x, n] = $cf + 0; have[x, n] = 1
}
END {
    if (bad) exit 1
    if (!nx) { printf "decision map: %s has no rows for %s; map skipped\n", src, P > "/dev/stderr"; exit 3 }
    sortu(xv, nx); sortu(nv, nn); edges(xv, nx, xl, xh); edges(nv, nn, nl, nh)
    dat = out ".dat"; rl = out "-rule.dat"; pl = out "-penalty.dat"
    printf "# %s: %s cells, x = %s; faster: %s; decided: %s\n# x xlo xhi n nlo nhi faster decided\n", src, P, A,
        cost ? "the cost rule (decision)" : "gpu_us < cpu_us", by > dat
    printf "# the seed rule (density_fraction > %g) boundary along %s\n# x n\n", inhibit, A > rl
    printf "# the seed penalty (density_fraction > %g) boundary along %s\n# x n\n", penalty, A > pl
    for (j = 1; j <= nn; j++) {
        n = nv[j]
        for (i = 1; i <= nx; i++) {
            x = xv[i]
            if (!have[x, n]) continue
            printf "%.10g %.10g %.10g %.10g %.10g %.10g %d %d\n", x, xl[i], xh[i], n, nl[j], nh[j], faster[x, n], decided[x, n] >> dat
            cells++; gf += faster[x, n]; override += (faster[x, n] != decided[x, n])
        }
        rp += boundary(inhibit, j, rl)
        if (penalty >= 0 && penalty < inhibit) pp += boundary(penalty, j, pl)
    }
    printf "pattern = \"%s\"\naxis = \"%s\"\ninhibit = %g\npenalty_start = %g\ndecided_by = \"%s\"\nfaster_by = \"%s\"\ncells = %d\ngpu_faster = %d\ncpu_faster = %d\noverridden = %d\nrule_points = %d\nrule_x = \"%s\"\npenalty_points = %d\npenalty_x = \"%s\"\n",
        P, A, inhibit, penalty, by, cost ? "cost" : "bare", cells, gf, cells - gf, override, rp, xlist[rl], pp + 0, xlist[pl] > (out ".gpi")
}' "$table"
