# contention.gp - time against contention for each of the twelve patterns:
# measurements (median, with min..max bars), the simulator and the model
# together, one panel per pattern along its contention axis (selectivity,
# bins, addresses or workgroup size).  Data: plots/prep_validation.sh.
# Renders OUT.png and OUT.svg.  Variables (gnuplot -e):
#   gpu      dataset name (validate/data/GPU.csv)   (required)
#   datadir  where prep_validation.sh wrote          (required)
#   out      output path without extension          (required)
#   w, h     image size (default 1800 x 1350)
if (!exists("gpu") || !exists("datadir") || !exists("out")) { print "contention.gp: set gpu, datadir and out"; exit status 2 }
# the config's gpu.trust, shown beside its name
if (!exists("trust")) { trust = "trust not given" }
if (!exists("w")) { w = 1800 }
if (!exists("h")) { h = 1350 }
load datadir . "/" . gpu . "-contention.gpi"
axislabel(a) = (a eq "selectivity") ? "selectivity S" : (a eq "bins") ? "bins K" : (a eq "addresses") ? "addresses P (one per line)" : "workgroup size (threads on one shared word)"

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size w, h font ",10" noenhanced
    } else {
        set terminal svg size w, h font ",10" noenhanced background rgb "white"
    }
    set output out . "." . fmt
    set multiplot layout 3, 4 title sprintf("%s (%s): time against contention, measured (median, min..max), simulated and modelled", gpu, trust) font ",14"
    set logscale xy
    set autoscale xfix
    set grid
    set key top left font ",8" opaque
    set ylabel "time (us)"
    do for [i=1:words(patterns)] {
        p = word(patterns, i)
        f = datadir . "/" . gpu . "-contention/" . p . ".dat"
        set title sprintf("%s (n = %s)", p, word(nvals, i))
        set xlabel axislabel(word(axes, i))
        cmd = ""
        if (word(has_meas, i) eq "1") {
            cmd = sprintf("'%s' using 1:2:3:4 with yerrorbars lc rgb 'black' pt 7 ps 0.6 title 'measured'", f)
        }
        if (word(has_sim, i) eq "1") {
            cmd = cmd . (strlen(cmd) ? ", " : "") . sprintf("'%s' using 1:5 with linespoints lc rgb '#1f77b4' lw 1.5 pt 5 ps 0.5 title 'simulator'", f)
        }
        if (word(has_model, i) eq "1") {
            cmd = cmd . (strlen(cmd) ? ", " : "") . sprintf("'%s' using 1:6 with linespoints lc rgb '#d62728' dt 2 lw 1.5 pt 6 ps 0.5 title 'model'", f)
        }
        if (strlen(cmd)) {
            eval("plot " . cmd)
        } else {
            # a pattern the dataset has no rows for: an empty, labelled panel
            unset logscale xy
            set label 99 "no measured rows on this axis" at graph 0.5, 0.5 center
            plot [0:1] [0:1] NaN notitle
            unset label 99
            set logscale xy
        }
    }
    unset multiplot
    set output
}
