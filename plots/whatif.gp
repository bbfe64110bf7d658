# whatif.gp - one to four panels of series from plots/series.sh: configs
# (or a varied config key) compared on one quantity.  Each series is drawn
# as its .gpi says (series.sh decides): colour per config, or per value of
# the varied key when one config is shown; line type per value of the
# varied key ("l2.slice_count=50/sim" solid, "=100" dashed, "=200" dotted),
# or, without one, per engine (sim solid, model dashed, cpu, the CPU tier's
# cost, dotted); marker per engine (sim filled, model open circles, thinner
# line, cpu open squares), so that series that overlap stay visible.  The
# legend is the series' names.  Renders OUT.png and OUT.svg.  Variables
# (gnuplot -e):
#   out      output path without extension          (required)
#   panels   number of panels, 1..4                 (default 1)
#   title    overall title                          (default "")
#   w, h     image size in pixels                   (default 900 per panel column x 600)
#   d1..d4   series base paths: dN.dat and dN.gpi    (required per panel)
#   t1..t4   panel titles; x1..x4, y1..y4 axis labels
#   lx1..lx4 1: log x (default 1); ly1..ly4 1: log y (default 1)
#   v1..v4   optional x of a vertical marker, with vt1..vt4 its label
#   styles   optional file: one line per series drawn, "panel series
#            colour dash marker title" (what tests read)
if (!exists("out")) { print "whatif.gp: set out"; exit status 2 }
if (!exists("panels")) { panels = 1 }
if (!exists("title")) { title = "" }
cols = (panels > 1) ? 2 : 1
rows = (panels > 2) ? 2 : 1
if (!exists("w")) { w = 900 * cols }
if (!exists("h")) { h = (rows > 1) ? 1100 : 650 }
get(name, dflt) = exists(name) ? value(name) : dflt
palette = "#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #17becf"

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size w, h font ",11" noenhanced
    } else {
        set terminal svg size w, h font ",11" noenhanced background rgb "white"
    }
    set output out . "." . fmt
    if (panels > 1) {
        set multiplot layout rows, cols title title font ",14"
    }
    do for [i=1:panels] {
        d = value("d" . i)
        load d . ".gpi"
        set title (panels > 1 ? get("t" . i, "") : title . "\n" . get("t" . i, ""))
        set xlabel get("x" . i, "")
        set ylabel get("y" . i, "time (us)")
        if (get("lx" . i, 1)) { set logscale x } else { unset logscale x }
        if (get("ly" . i, 1)) { set logscale y } else { unset logscale y }
        set grid
        set autoscale xfix
        set key outside right top
        unset arrow
        unset label
        if (exists("v" . i)) {
            vx = value("v" . i)
            set arrow 1 from vx, graph 0 to vx, graph 1 nohead dt 3 lw 2 lc rgb "black"
            set label 1 get("vt" . i, "") at vx, graph 0.97 offset 0.5, 0 left font ",9"
        }
        cmd = "plot "
        do for [s=1:nseries] {
            name = word(series, s)
            c = int(word(colour, s))
            dt_s = int(word(dash, s))
            pt = int(word(marker, s))
            lw = (pt == 6) ? 1.0 : 1.8
            rgb = word(palette, (c - 1) % 8 + 1)
            cmd = cmd . sprintf("'%s.dat' index %d using 1:2 with linespoints lc rgb '%s' dt %d pt %d ps 0.7 lw %.1f title '%s'", d, s - 1, rgb, dt_s, pt, lw, name)
            if (s < nseries) { cmd = cmd . ", " }
            if (exists("styles") && fmt eq "png") {
                set print styles append
                print sprintf("%d %d %d %d %d %s", i, s, c, dt_s, pt, name)
                set print
            }
        }
        eval(cmd)
    }
    if (panels > 1) { unset multiplot }
    set output
}
