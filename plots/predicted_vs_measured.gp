# predicted_vs_measured.gp - every measured configuration of a dataset,
# predicted time against measured time, the simulator on the left and the
# model on the right, one colour per pattern; the diagonal with bands of
# +-25% and a factor of 2, horizontal bars for the measured min..max.
# Data: plots/prep_validation.sh (GPU-joined.csv, GPU-pvm.gpi).
# Renders OUT.png and OUT.svg.  Variables (gnuplot -e):
#   gpu, datadir, out (required); w, h image size (default 1800 x 800)
if (!exists("gpu") || !exists("datadir") || !exists("out")) { print "predicted_vs_measured.gp: set gpu, datadir and out"; exit status 2 }
# the config's gpu.trust, shown beside its name
if (!exists("trust")) { trust = "trust not given" }
if (!exists("w")) { w = 1800 }
if (!exists("h")) { h = 800 }
load datadir . "/" . gpu . "-pvm.gpi"
f = datadir . "/" . gpu . "-joined.csv"
palette = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf #7f7f7f #bcbd22 #000000 #aec7e8"
set datafile separator ","
set datafile missing "NaN"

# the range: every measured and predicted time, with a margin
stats f using 9 nooutput
lo = STATS_min
hi = STATS_max
lo = lo / 2
hi = hi * 2

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size w, h font ",11" noenhanced
    } else {
        set terminal svg size w, h font ",11" noenhanced background rgb "white"
    }
    set output out . "." . fmt
    set multiplot layout 1, 2 title sprintf("%s (%s): predicted against measured time, %d measured configurations", gpu, trust, measured) font ",14"
    set logscale xy
    set xrange [lo:hi]
    set yrange [lo:hi]
    set size ratio -1
    set grid
    set xlabel "measured time (us, median; bars: min..max)"
    set ylabel "predicted time (us)"
    set key outside right top font ",9"
    set style fill transparent solid 0.12 noborder
    do for [e in "sim model"] {
        list = (e eq "sim") ? sim_patterns : model_patterns
        col = (e eq "sim") ? 12 : 13
        npts = (e eq "sim") ? sim_points : model_points
        fac = (e eq "sim") ? sim_median_factor : model_median_factor
        w2 = (e eq "sim") ? sim_within_2x : model_within_2x
        set title sprintf("%s: %d points, median factor off %.2f, %.0f%% within 2x", (e eq "sim") ? "simulator" : "model", npts, fac, 100 * w2)
        cmd = "plot '+' using 1:($1/2):($1*2) with filledcurves lc rgb '#888888' title 'within 2x', "
        cmd = cmd . "'+' using 1:($1/1.25):($1*1.25) with filledcurves lc rgb '#2ca02c' title 'within 25%', "
        cmd = cmd . "x with lines lc rgb 'black' dt 2 title 'predicted = measured'"
        do for [k=1:words(list)] {
            pi = int(word(list, k))
            cmd = cmd . sprintf(", f using (column(14) == %d ? $9 : NaN):%d:10:11 with xerrorbars pt 7 ps 0.6 lc rgb '%s' title '%s'", pi, col, word(palette, pi), word(patterns, pi))
        }
        if (npts == 0) {
            set label 99 "no predictions from this engine" at graph 0.5, 0.5 center
        }
        eval(cmd)
        unset label 99
    }
    unset multiplot
    set output
}
