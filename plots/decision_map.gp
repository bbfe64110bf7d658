# decision_map.gp - the dispatcher's decision map: n against selectivity or
# bins, each cell coloured by the faster side (GPU or CPU tier: the cost
# rule's decision, data movement included, in a schema-2 table; the bare
# costs otherwise), cells where seed 000's rule decides otherwise (its
# density inhibition, its penalty, or CAS) crossed, the seed's 10% rule
# (contention density above dispatch.density_inhibit of thread capacity) as
# a black line and where its penalty starts (dispatch.density_penalty_start,
# 5%) as a dashed grey one, both at their true positions on the axis
# (prep_decisions.sh: S = 0.1 and K = 10 at 10%), not at a cell edge.  Data: plots/prep_decisions.sh (its .gpi says which column
# the crosses come from: seed_decision, or decision in an older table).
# Renders OUT.png and OUT.svg.  Variables:
#   out (required); title; panels (1..2, default 1); w, h
#   d1, d2   panel data base paths: dN.dat, dN-rule.dat, dN.gpi (required)
#   t1, t2   panel titles
if (!exists("out")) { print "decision_map.gp: set out"; exit status 2 }
if (!exists("panels")) { panels = 1 }
if (!exists("title")) { title = "" }
if (!exists("w")) { w = 850 * panels }
if (!exists("h")) { h = 700 }
get(name, dflt) = exists(name) ? value(name) : dflt
gpu_rgb = 0x9be59b
cpu_rgb = 0xf7b26b

do for [fmt in "png svg"] {
    if (fmt eq "png") {
        set terminal pngcairo size w, h font ",11" noenhanced
    } else {
        set terminal svg size w, h font ",11" noenhanced background rgb "white"
    }
    set output out . "." . fmt
    set multiplot layout 1, panels title title font ",14"
    set logscale xy
    set logscale y 2
    set format y "%.0f"
    set ytics 1024, 16
    set key outside bottom center horizontal maxrows 2 font ",9"
    set bmargin 8
    set style fill solid 1.0 noborder
    do for [i=1:panels] {
        d = value("d" . i)
        undefine decided_by penalty_points
        load d . ".gpi"
        if (!exists("decided_by")) { decided_by = "decision" }
        crossed = (decided_by eq "seed_decision") ? "the seed rule departs from it" : "the decision departs from it"
        set title get("t" . i, pattern) . sprintf("\n%d cells: GPU faster in %d, CPU in %d; %s in %d", cells, gpu_faster, cpu_faster, crossed, overridden)
        set xlabel (axis eq "bins") ? "bins K" : "selectivity S"
        set ylabel "n (elements)"
        set autoscale xfix
        set autoscale yfix
        cmd = sprintf("plot '%s.dat' using 1:4:2:3:5:6:($7 > 0 ? gpu_rgb : cpu_rgb) with boxxy lc rgb variable notitle", d)
        if (gpu_faster > 0) { cmd = cmd . ", NaN with boxes lc rgb '#9be59b' title 'GPU predicted faster'" }
        if (cpu_faster > 0) { cmd = cmd . ", NaN with boxes lc rgb '#f7b26b' title 'CPU tier predicted faster'" }
        if (overridden > 0) {
            cmd = cmd . sprintf(", '%s.dat' using 1:($7 != $8 ? $4 : NaN) with points pt 2 ps 0.8 lc rgb '#444444' title '%s (density, penalty or CAS)'", d, crossed)
        }
        if (rule_points > 0) {
            cmd = cmd . sprintf(", '%s-rule.dat' using 1:2 with lines lw 2.5 lc rgb 'black' title sprintf('seed 000 rule: density > %%g of capacity', inhibit)", d)
        }
        if (exists("penalty_points") && penalty_points > 0) {
            cmd = cmd . sprintf(", '%s-penalty.dat' using 1:2 with lines lw 2 dt 2 lc rgb '#555555' title sprintf('seed 000 penalty from density > %%g', penalty_start)", d)
        }
        eval(cmd)
    }
    unset multiplot
    set output
}
