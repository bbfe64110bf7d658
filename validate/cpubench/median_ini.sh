#!/bin/bash
# median_ini.sh - one configs/cpu-*.ini from several runs of the same
# measurement (validate/run_truth.sh cpu-config): every measured figure is
# the median of that figure over the runs, because on a virtual host whole
# runs are fast or slow together (key_ns 0.455 to 1.29 ns on the GPU host,
# docs/model.md, section 5) and a median of runs steadies what the fastest
# repetition within a run cannot.  Lines without a number (sections, names,
# sysconf sizes that agree) come from the first run; the date is the first
# run's.  Keys must appear in the same order in every file.
#
# usage: bash validate/cpubench/median_ini.sh RUN1.ini RUN2.ini [...] > NAME.ini
set -eu
if [ $# -lt 2 ]; then
    echo "usage: median_ini.sh RUN1.ini RUN2.ini [...] > NAME.ini" >&2
    exit 2
fi
awk -v runs=$# '
    function median(key,   i, j, t, n, a) {
        n = 0
        for (i = 1; i <= runs; i++) if ((key, i) in val) a[++n] = val[key, i]
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    FNR == 1 { file++ }
    # key = number [; comment]
    /^[a-z_0-9]+ = [-0-9.e+]+( ;.*)?$/ {
        key = $1
        if (file > 1 && !(key in order)) {
            printf "median_ini: %s: key %s is not in %s\n", FILENAME, key, ARGV[1] > "/dev/stderr"
            bad = 1
        }
        val[key, file] = $3
        cnt[key]++
        if (file == 1) { order[key] = ++nlines; line[nlines] = $0; iskey[nlines] = key; dec[key] = $3 }
        next
    }
    file == 1 { line[++nlines] = $0 }
    END {
        if (bad) exit 1
        for (k in cnt) if (cnt[k] != runs) {
            printf "median_ini: key %s is in %d of %d runs\n", k, cnt[k], runs > "/dev/stderr"
            exit 1
        }
        for (i = 1; i <= nlines; i++) {
            if (!(i in iskey)) {
                print line[i]
                if (i == 1) printf "; every figure below: the median over %d separate runs of that measurement (validate/cpubench/median_ini.sh)\n", runs
                continue
            }
            k = iskey[i]
            # keep the first run'"'"'s decimals: "0.6705" prints as %.4f
            d = dec[k]; p = index(d, ".") ? length(d) - index(d, ".") : 0
            rest = line[i]; sub(/^[a-z_0-9]+ = [-0-9.e+]+/, "", rest)
            if (d ~ /e/) printf "%s = %g%s\n", k, median(k), rest
            else printf "%s = %.*f%s\n", k, p, median(k), rest
        }
    }' "$@"
