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
# "X Y") and OUT.gpi, a gnuplot include that names the blocks:
#   series = "h100/sim h100/model ..."   nseries = N   points = "11 11 ..."
# Y may be a column name or a ratio A/B of two columns of the same row.
# With LOGX=1 in the environment rows with X <= 0 are left out (a log axis
# cannot show them); PREFIX="slices=" is put before every series name;
# UNCALIBRATED="a100 rtx4090" marks a series whose config is one of those
# as "a100(uncalibrated)/sim", so a legend never draws an uncalibrated GPU
# like a calibrated one.  Exits 1, naming the column, when a column is missing.
set -eu
[ $# -ge 5 ] || { echo "usage: plots/series.sh CSV OUT X Y SERIES [COL=VALUE ...]" >&2; exit 2; }
csv=$1 out=$2 x=$3 y=$4 series=$5
shift 5
filters="$*"
awk -F, -v X="$x" -v Y="$y" -v S="$series" -v F="$filters" -v logx="${LOGX:-0}" -v prefix="${PREFIX:-}" -v uncal="${UNCALIBRATED:-}" -v out="$out" -v src="$csv" '
function num(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
function col(name) {
    if (!(name in idx)) { printf "series.sh: %s has no column \"%s\"\n", src, name > "/dev/stderr"; bad = 1; exit 1 }
    return idx[name]
}
BEGIN { nu = split(uncal, ul, " "); for (i = 1; i <= nu; i++) isuncal[ul[i]] = 1 }
function label(v) { return (v in isuncal) ? v "(uncalibrated)" : v }
/^#/ { next }
!header {
    header = 1
    for (i = 1; i <= NF; i++) idx[$i] = i
    xc = col(X)
    if (index(Y, "/")) { split(Y, yy, "/"); ya = col(yy[1]); yb = col(yy[2]) } else { ya = col(Y); yb = 0 }
    ns = split(S, sn, "+"); for (i = 1; i <= ns; i++) sc[i] = col(sn[i])
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
    name = prefix label($(sc[1])); for (i = 2; i <= ns; i++) name = name "/" label($(sc[i]))
    if (!(name in count)) { order[++nseries] = name; count[name] = 0 }
    k = ++count[name]; xs[name, k] = $xc + 0; ys[name, k] = yv
}
END {
    if (bad) exit 1
    dat = out ".dat"; gpi = out ".gpi"
    printf "" > dat
    names = ""; pts = ""
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
        names = names (s > 1 ? " " : "") name; pts = pts (s > 1 ? " " : "") n
    }
    printf "# %s: %s against %s, by %s%s\n", src, Y, X, S, (F != "" ? ", where " F : "") > gpi
    printf "series = \"%s\"\nnseries = %d\npoints = \"%s\"\n", names, nseries, pts >> gpi
}' "$csv"
