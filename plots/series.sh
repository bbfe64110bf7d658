#!/usr/bin/env bash
# series.sh - cuts a CSV written by `atomsim sweep`/`study` into gnuplot
# data blocks, one per series, for plots/whatif.gp.
#
#   plots/series.sh CSV OUT X Y SERIES [COL=VALUE ...]
#
# Keeps the rows whose columns equal every COL=VALUE (compared as numbers
# when both sides are numbers), groups them by SERIES (a column name, or
# names joined by '+', e.g. config+engine -> "h100/sim"), sorts each group
# by X and writes OUT.dat (blocks separated by two blank lines, each row
# "X Y") and OUT.gpi, a gnuplot include that names the blocks and says how
# to draw each (one word a series, in block order):
#   series = "h100/sim h100/model ..."   nseries = N   points = "11 11 ..."
#   varied = "l2.slice_count"   the SERIES columns that are neither config,
#                               engine nor pattern ("" when none)
#   colour = "1 1 2 2"   one per config; with one config and a varied
#                        column, one per varied value
#   dash = "1 1 2 2"     one per varied value (1 solid, 2 dashed, 3 dotted,
#                        ...); without a varied column, by engine: sim 1,
#                        model 2, cpu 3
#   marker = "7 6 7 6"   by engine: sim 7 (filled circle), model 6 (open
#                        circle), cpu 4 (open square), else 7
# so that series that differ only by a varied key (four l2.slice_count
# values of one GPU) differ in colour and in line type, and an overlapping
# pair still shows both.  A varied column's values are named "KEY=VALUE"
# in the series names (the legend), e.g. "l2.slice_count=50/sim".
# Y may be a column name or a ratio A/B of two columns of the same row.
# With LOGX=1 in the environment rows with X <= 0 are left out (a log axis
# cannot show them); UNCALIBRATED="a100 rtx4090" marks a series whose
# config is one of those as "a100(uncalibrated)/sim", so a legend never
# draws an uncalibrated GPU like a calibrated one.  Exits 1, naming the
# column, when a column is missing, and naming the series, when a series
# has two rows at one X (a column that varies is neither in SERIES nor
# pinned by COL=VALUE: its line would zigzag between them).
set -eu
[ $# -ge 5 ] || { echo "usage: plots/series.sh CSV OUT X Y SERIES [COL=VALUE ...]" >&2; exit 2; }
csv=$1 out=$2 x=$3 y=$4 series=$5
shift 5
filters="$*"
awk -F, -v X="$x" -v Y="$y" -v S="$series" -v F="$filters" -v logx="${LOGX:-0}" -v uncal="${UNCALIBRATED:-}" -v out="$out" -v src="$csv" '
function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function col(name) {
    if (!(name in idx)) { printf "series.sh: %s has no column \"%s\"\n", src, name > "/dev/stderr"; bad = 1; exit 1 }
    return idx[name]
}
BEGIN { nu = split(uncal, ul, " "); for (i = 1; i <= nu; i++) isuncal[ul[i]] = 1 }
function label(v) { return (v in isuncal) ? v "(uncalibrated)" : v }
# the index of value v among those seen so far in list `l` (adds it)
function nth(l, v) { if (!((l, v) in seen_)) { seen_[l, v] = ++nseen_[l] } return seen_[l, v] }
/^#/ { next }
!header {
    header = 1
    for (i = 1; i <= NF; i++) idx[$i] = i
    xc = col(X)
    if (index(Y, "/")) { split(Y, yy, "/"); ya = col(yy[1]); yb = col(yy[2]) } else { ya = col(Y); yb = 0 }
    ns = split(S, sn, "+")
    varied = ""
    for (i = 1; i <= ns; i++) {
        sc[i] = col(sn[i])
        kind[i] = (sn[i] == "config" || sn[i] == "engine" || sn[i] == "pattern") ? sn[i] : "varied"
        if (kind[i] == "varied") varied = varied (varied == "" ? "" : "+") sn[i]
    }
    nf = split(F, fl, " ")
    for (i = 1; i <= nf; i++) { eq = index(fl[i], "="); fc[i] = col(substr(fl[i], 1, eq - 1)); fv[i] = substr(fl[i], eq + 1) }
    next
}
{
    for (i = 1; i <= nf; i++) {
        v = $(fc[i])
        if (num(v) && num(fv[i])) { if (v + 0 != fv[i] + 0) next } else if (v != fv[i]) next
    }
    if (logx && $xc + 0 <= 0) next
    yv = yb ? ($(yb) + 0 > 0 ? $(ya) / $(yb) : "NaN") : $(ya)
    if (!num(yv)) next
    name = ""; cfg = ""; var = ""; eng = ""
    for (i = 1; i <= ns; i++) {
        v = $(sc[i])
        part = kind[i] == "config" ? label(v) : kind[i] == "varied" ? sn[i] "=" v : v
        name = name (i > 1 ? "/" : "") part
        if (kind[i] == "config") cfg = v
        else if (kind[i] == "engine") eng = v
        else if (kind[i] == "varied") var = var "/" v
    }
    if (!(name in count)) {
        order[++nseries] = name; count[name] = 0
        scfg[nseries] = (cfg == "") ? 0 : nth("config", cfg)
        svar[nseries] = (var == "") ? 0 : nth("varied", var)
        seng[nseries] = eng
    }
    xk = sprintf("%.17g", $xc + 0)   # not CONVFMT: 1048576 and 1048577 are two x
    if ((name, xk) in at) {
        printf "series.sh: %s: series %s has two rows at %s = %s; name the column that differs in SERIES or pin it with COL=VALUE\n", src, name, X, $xc > "/dev/stderr"
        bad = 1; exit 1
    }
    at[name, xk] = 1
    k = ++count[name]; xs[name, k] = $xc + 0; ys[name, k] = yv
}
END {
    if (bad) exit 1
    dat = out ".dat"; gpi = out ".gpi"
    printf "" > dat
    names = ""; pts = ""; cols = ""; dashes = ""; marks = ""
    for (s = 1; s <= nseries; s++) {
        name = order[s]; n = count[name]
        # insertion sort by x: series are short
        for (i = 2; i <= n; i++) {
            kx = xs[name, i]; ky = ys[name, i]
            for (j = i - 1; j >= 1 && xs[name, j] > kx; j--) { xs[name, j + 1] = xs[name, j]; ys[name, j + 1] = ys[name, j] }
            xs[name, j + 1] = kx; ys[name, j + 1] = ky
        }
        if (s > 1) printf "\n\n" >> dat
        printf "# series %s\n", name >> dat
        for (i = 1; i <= n; i++) printf "%.10g %.10g\n", xs[name, i], ys[name, i] >> dat
        e = seng[s]
        c = (varied != "" && nseen_["config"] <= 1) ? svar[s] : (scfg[s] ? scfg[s] : 1)
        d = (varied != "") ? svar[s] : (e == "model") ? 2 : (e == "cpu") ? 3 : 1
        m = (e == "model") ? 6 : (e == "cpu") ? 4 : 7
        sep = (s > 1 ? " " : "")
        names = names sep name; pts = pts sep n; cols = cols sep c; dashes = dashes sep d; marks = marks sep m
    }
    printf "# %s: %s against %s, by %s%s\n", src, Y, X, S, (F != "" ? ", where " F : "") > gpi
    printf "series = \"%s\"\nnseries = %d\npoints = \"%s\"\nvaried = \"%s\"\ncolour = \"%s\"\ndash = \"%s\"\nmarker = \"%s\"\n",
        names, nseries, pts, varied, cols, dashes, marks >> gpi
}' "$csv"
