#!/bin/bash
# fixed_section.sh - the [fixed] section of a configs/cpu-*.ini from what
# `cpubench --plan validate/cpubench/fixed.plan` measured on the host: the
# median of each algorithm family's whole-task time at n = 1024 (64 elements a worker), and the
# cost of a bin while every worker's copy stays in cache.
#
# usage: bash validate/cpubench/fixed_section.sh FIXED.csv >> configs/cpu-NAME.ini
set -eu
awk -F, '
    /^#/ || $1 == "pattern" { next }
    $1 == "histogram" && $5 == 16384 { big = $10; next }
    $1 == "histogram" { one = $10 }
    { fam = ($1 ~ /^(compaction|cas-append)$/) ? "compact" : ($1 ~ /^(histogram|distinct-lines)/) ? "bins" : ($1 ~ /^(store|bitmask)$/) ? "write" : "scan"
      v[fam, ++k[fam]] = $10 }
    function median(f,   i, j, t, n) {
        n = k[f]
        for (i = 2; i <= n; i++) { t = v[f, i]; for (j = i - 1; j >= 1 && v[f, j] > t; j--) v[f, j + 1] = v[f, j]; v[f, j + 1] = t }
        return n % 2 ? v[f, (n + 1) / 2] : (v[f, n / 2] + v[f, n / 2 + 1]) / 2
    }
    END {
        if (!k["scan"] || !k["write"] || !k["compact"] || !k["bins"] || big == "" || one == "") {
            print "fixed_section: the CSV lacks rows of fixed.plan" > "/dev/stderr"
            exit 1
        }
        print "\n[fixed]"
        print "; cpubench --plan validate/cpubench/fixed.plan on this host: the median of each family'"'"'s patterns at n = 1024"
        printf "scan_fixed_us = %.3f ; counters, reduce: the caller sums every worker'"'"'s result (measured)\n", median("scan")
        printf "write_fixed_us = %.3f ; store, bitmask: output written in place (measured)\n", median("write")
        printf "compact_fixed_us = %.3f ; compaction, cas-append (measured)\n", median("compact")
        printf "bins_fixed_us = %.3f ; histograms and distinct-lines at 1 bin (measured)\n", median("bins")
        printf "bins_cached_ns_per_bin = %.4f ; (histogram at 16,384 bins - at 1) / 16,383 (measured)\n", (big - one) * 1000 / 16383
    }' "$1"
