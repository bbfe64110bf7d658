#!/usr/bin/env bash
# studies.sh - the plots of the shipped studies (configs/studies/*.ini), from
# their CSV outputs, through plots/series.sh and plots/whatif.gp:
#   study-histogram-bins      time against K per GPU, global and shared-memory bins
#   study-compaction-selectivity  compaction time against S per GPU, one panel per n,
#                             with the CPU tier's cost from the cost tables
#   study-subword-cas         8- and 16-bit CAS histograms' time over the 32-bit one's
#   whatif-l2                 the H100's histogram with other L2 slice counts,
#                             RMW latencies and lane-merging rules
#
#   plots/studies.sh STUDYDIR DATADIR OUTDIR [COSTDIR]
#
# STUDYDIR holds NAME.csv as `atomsim study` writes it; a study without its
# CSV is skipped with a note.  COSTDIR holds CONFIG-costs.csv (`atomsim
# export --format csv`), used where present.  Series files go to DATADIR,
# images (PNG and SVG) to OUTDIR.  PLOT_STYLES=FILE in the environment
# appends each drawn series' colour, line type and marker to FILE
# (whatif.gp's `styles`, for tests).
set -eu
[ $# -ge 3 ] || { echo "usage: plots/studies.sh STUDYDIR DATADIR OUTDIR [COSTDIR]" >&2; exit 2; }
sd=$1 dd=$2 od=$3 cd=${4:-}
here=$(dirname "$0")
mkdir -p "$dd" "$od"

# Configs whose gpu.trust says uncalibrated: their series say so in legends.
uncal=$(cd "$here/../configs" && grep -l '^trust *= *uncalibrated' ./*.ini 2>/dev/null | sed 's|^\./||; s|\.ini$||' | tr '\n' ' ')
series() { UNCALIBRATED="$uncal" bash "$here/series.sh" "$@"; }
# 1048576 -> 2^20 (other numbers as they are)
pow2() { awk -v n="$1" 'BEGIN { e = log(n) / log(2); r = int(e + 0.5); if (n > 0 && 2 ^ r == n) printf "2^%d", r; else printf "%s", n }'; }
# render OUT GNUPLOT-SETTINGS: refuses panels without series (nothing to draw)
render() {
    local out=$1 settings=$2 d
    for d in $(printf '%s\n' "$settings" | grep -o "d[1-4]='[^']*'" | sed "s/^d[1-4]='//; s/'$//"); do
        if grep -q '^nseries = 0' "$d.gpi"; then
            echo "studies: $out: no rows for panel $d; plot skipped" >&2
            return 0
        fi
    done
    gnuplot -e "out='$out'; ${PLOT_STYLES:+styles='$PLOT_STYLES'; }$settings" "$here/whatif.gp"
}
# The seed rule's threshold (dispatch.density_inhibit) of the H100 config the
# studies lead with: the cost table's header, else the config's key, else
# the key's default.  Its markers sit where the rule's density crosses it:
# S = threshold for compaction (density fraction S), K = 1 / threshold for
# a histogram of hot = 0 (fraction 1/K).
inhibit=""
if [ -n "$cd" ] && [ -s "$cd/h100-costs.csv" ]; then
    inhibit=$(sed -n 's/^# density_inhibit: *//p' "$cd/h100-costs.csv" | head -1)
fi
if [ -z "$inhibit" ]; then
    inhibit=$(awk -F'[=;]' '/^\[/ { sec = $0 } sec == "[dispatch]" && $1 ~ /^ *density_inhibit *$/ { gsub(/ /, "", $2); print $2; exit }' "$here/../configs/h100.ini")
fi
inhibit=${inhibit:-0.1}
inhibit_k=$(awk -v t="$inhibit" 'BEGIN { printf "%.4g", 1 / t }')
inhibit_s=$(awk -v t="$inhibit" 'BEGIN { printf "%.4g", t }')
have() {
    if [ -s "$sd/$1.csv" ]; then return 0; fi
    echo "studies: no $sd/$1.csv (atomsim study configs/studies/$1.ini); its plot is skipped" >&2
    return 1
}

if have histogram-bins; then
    f=$sd/histogram-bins.csv
    LOGX=1 series "$f" "$dd/hb-global" bins time_us config+engine pattern=histogram
    LOGX=1 series "$f" "$dd/hb-shared" bins time_us config+engine pattern=histogram-shared
    n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "n") c = i; next } { print $c; exit }' "$f")
    render "$od/study-histogram-bins" "panels=2; title='When does a histogram stop contending? n = $(pow2 "$n"), every thread adds 1 to bin (key >> 3) % K'; \
d1='$dd/hb-global'; t1='global atomics (histogram)'; x1='bins K'; v1=$inhibit_k; vt1='seed 000 rule: GPU inhibited below K = $inhibit_k'; \
d2='$dd/hb-shared'; t2='bins in shared memory (histogram-shared)'; x2='bins K'"
fi

if have compaction-selectivity; then
    # the study's compaction rows, plus the CPU tier's cost at the same points
    awk -F, -v cd="$cd" '
    FNR == 1 { file++ }
    /^#/ { next }
    file == 1 && FNR == 1 { for (i = 1; i <= NF; i++) ix[$i] = i; print "pattern,n,selectivity,engine,config,time_us"; next }
    file == 1 {
        if ($ix["pattern"] != "compaction") next
        print $ix["pattern"] "," $ix["n"] "," $ix["selectivity"] "," $ix["engine"] "," $ix["config"] "," $ix["time_us"]
        want[$ix["n"] + 0, $ix["selectivity"] + 0] = 1
        if (!($ix["config"] in cfgs)) { cfgs[$ix["config"]] = 1; corder[++nc] = $ix["config"] }
        next
    }
    END {
        if (cd == "") exit
        for (ci = 1; ci <= nc; ci++) {
            c = corder[ci]; f = cd "/" c "-costs.csv"; h = 0
            while ((getline line < f) > 0) {
                if (line ~ /^#/) continue
                n = split(line, v, ",")
                if (!h) { h = 1; for (i = 1; i <= n; i++) jx[v[i]] = i; continue }
                # schema 2 has one row per workgroup shape; the CPU ignores
                # the shape, so one of them stands for all
                if (("wg" in jx) && (v[jx["wg"]] + 0 != 256 || v[jx["smem_per_wg"]] + 0 != 0)) continue
                if (v[jx["pattern"]] == "compaction" && ((v[jx["n"]] + 0, v[jx["selectivity"]] + 0) in want))
                    print "compaction," v[jx["n"]] "," v[jx["selectivity"]] ",cpu," c "," v[jx["cpu_us"]]
            }
            close(f)
        }
    }' "$sd/compaction-selectivity.csv" >"$dd/compaction.csv"
    # one panel per n of the study (at most four), smallest first
    settings="title='When should compaction move to the CPU? GPU: one atomicAdd on a shared head per selected element; cpu: the CPU tier (cost table)'"
    i=0
    for n in $(awk -F, 'NR > 1 { print $2 }' "$dd/compaction.csv" | sort -nu | head -4); do
        i=$((i + 1))
        LOGX=1 series "$dd/compaction.csv" "$dd/compaction-$n" selectivity time_us config+engine n=$n
        settings="$settings; d$i='$dd/compaction-$n'; t$i='n = $(pow2 "$n")'; x$i='selectivity S'; v$i=$inhibit_s; vt$i='seed 000: CPU above S = $inhibit_s'"
    done
    render "$od/study-compaction-selectivity" "panels=$i; $settings"
fi

if have subword-cas; then
    # time of the 8- and 16-bit CAS histograms over the 32-bit histogram's, same config, engine, n, K
    awk -F, '
    /^#/ { next }
    FNR == 1 { for (i = 1; i <= NF; i++) ix[$i] = i; print "config,engine,n,bins,u8_over_u32,u16_over_u32"; next }
    {
        k = $ix["config"] "," $ix["engine"] "," $ix["n"] "," $ix["bins"]
        t[k, $ix["pattern"]] = $ix["time_us"]
        if (!(k in seen)) { seen[k] = 1; order[++m] = k }
    }
    END {
        for (i = 1; i <= m; i++) {
            k = order[i]; b = t[k, "histogram"]
            if (b + 0 <= 0 || t[k, "histogram-u8-cas"] == "" || t[k, "histogram-u16-cas"] == "") continue
            printf "%s,%.6g,%.6g\n", k, t[k, "histogram-u8-cas"] / b, t[k, "histogram-u16-cas"] / b
        }
    }' "$sd/subword-cas.csv" >"$dd/subword.csv"
    # the grid over every K is the one at the smallest n
    n=$(awk -F, 'NR > 1 { print $3 }' "$dd/subword.csv" | sort -n | head -1)
    LOGX=1 series "$dd/subword.csv" "$dd/subword-u8" bins u8_over_u32 config+engine n="$n"
    LOGX=1 series "$dd/subword.csv" "$dd/subword-u16" bins u16_over_u32 config+engine n="$n"
    render "$od/study-subword-cas" "panels=2; title='What do CAS-emulated 8- and 16-bit histograms cost? time over the 32-bit atomicAdd histogram, n = $(pow2 "$n")'; \
d1='$dd/subword-u8'; t1='8-bit bins (4 per word): u8 / u32'; x1='bins K'; y1='time relative to the 32-bit histogram'; \
d2='$dd/subword-u16'; t2='16-bit bins (2 per word): u16 / u32'; x2='bins K'; y2='time relative to the 32-bit histogram'"
fi

if have whatif-l2; then
    f=$sd/whatif-l2.csv
    # each grid varies one key; the others stay at the config's values
    LOGX=1 series "$f" "$dd/whatif-slices" bins time_us l2.slice_count+engine pattern=histogram \
        l2.same_address_cycles=1.45 coalesce.merge_rule=uniform
    LOGX=1 series "$f" "$dd/whatif-rmw" bins time_us l2.same_address_cycles+engine pattern=histogram \
        l2.slice_count=100 coalesce.merge_rule=uniform
    LOGX=1 series "$f" "$dd/whatif-merging" bins time_us coalesce.merge_rule+engine pattern=histogram \
        l2.slice_count=100 l2.same_address_cycles=1.45
    n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "n") c = i; next } { print $c; exit }' "$f")
    render "$od/whatif-l2" "panels=3; title='What if (H100 config, histogram, n = $(pow2 "$n")): which mechanism decides contention?'; \
d1='$dd/whatif-slices'; t1='L2 slices (l2.slice_count)'; x1='bins K'; \
d2='$dd/whatif-rmw'; t2='same-address RMW cycles (l2.same_address_cycles)'; x2='bins K'; \
d3='$dd/whatif-merging'; t3='lane merging in the SM (coalesce.merge_rule)'; x3='bins K'"
fi
