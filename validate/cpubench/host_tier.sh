#!/bin/bash
# host_tier.sh - the CPU tier of one kind of host: every figure the median of
# that figure over several hosts' own configs (each written by
# `validate/run_truth.sh cpu-config` on one host, itself a median of runs).
# Hosts of one kind differ by about as much as the tier's goal (a plan runs
# 7% faster on one H200 host than on the next, docs/findings.md 44), so a
# table's tier is the middle of the hosts it will meet, not any one of them.
#
# The first host's file is the template: its key order, sections and
# comments are kept, so it must hold every key.  What describes the kind of
# host rather than its speed (cpu_model, workers, the cache sizes, the skip
# branch's lanes) must agree in every file, or the files are not one kind
# and nothing is written; the date is the newest file's.  Older hosts'
# files may lack a key cpubench learned to time later; such a key is the
# median over the hosts that timed it, and a comment above it says how many
# did.  `--share KEY=BASE` takes KEY instead as the median, over the hosts
# that timed both, of KEY / BASE, times the tier's BASE: a host's speed
# moves both alike, so a share from a few hosts carries over to the middle
# host where an absolute figure from those few would not.
#
# usage: bash validate/cpubench/host_tier.sh --name NAME [--share KEY=BASE ...]
#            TEMPLATE.ini HOST.ini [...] > configs/cpu-NAME.ini
set -eu
name= shares=
while [ $# -gt 0 ]; do
    case $1 in
        --name) name=$2; shift 2 ;;
        --share) shares="$shares $2"; shift 2 ;;
        --) shift; break ;;
        -*) echo "host_tier: unknown option $1" >&2; exit 2 ;;
        *) break ;;
    esac
done
if [ -z "$name" ] || [ $# -lt 2 ]; then
    echo "usage: host_tier.sh --name NAME [--share KEY=BASE ...] TEMPLATE.ini HOST.ini [...] > NAME.ini" >&2
    exit 2
fi
for f in "$@"; do
    [ -r "$f" ] || { echo "host_tier: cannot read $f" >&2; exit 2; }
    grep -Eq '^[a-z_0-9]+ = [-0-9.e+]+' "$f" || { echo "host_tier: $f holds no figure: not a CPU config" >&2; exit 2; }
done
awk -v hosts=$# -v name="$name" -v shares="$shares" '
    function sort_median(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    function median(key,   i, n, a) {
        n = 0
        for (i = 1; i <= hosts; i++) if ((key, i) in val) a[++n] = val[key, i]
        return sort_median(a, n)
    }
    function share_median(key, base,   i, n, a) {
        n = 0
        for (i = 1; i <= hosts; i++)
            if ((key, i) in val && (base, i) in val && val[base, i] > 0) a[++n] = val[key, i] / val[base, i]
        nshare[key] = n
        return n ? sort_median(a, n) : -1
    }
    BEGIN {
        # what names the kind of host, not its speed: every file must agree
        nk = split("workers l1_bytes l2_bytes llc_bytes store_skip_lanes", kinds, " ")
        for (i = 1; i <= nk; i++) kind[kinds[i]] = 1
        ns = split(shares, s, " ")
        for (i = 1; i <= ns; i++) {
            if (split(s[i], kv, "=") != 2) {
                printf "host_tier: --share wants KEY=BASE, not %s\n", s[i] > "/dev/stderr"
                failed = 2; exit
            }
            share_of[kv[1]] = kv[2]
        }
    }
    FNR == 1 { file++; src[file] = FILENAME }
    /^date = / { if ($3 > newest) newest = $3 }
    /^cpu_model = / {
        m = $0; sub(/^cpu_model = /, "", m)
        if (file == 1) model = m
        else if (m != model) {
            printf "host_tier: %s: cpu_model %s where the template has %s: not one kind of host\n", FILENAME, m, model > "/dev/stderr"
            failed = 1; exit
        }
    }
    /^[a-z_0-9]+ = [-0-9.e+]+( ;.*)?$/ {
        key = $1
        if (file > 1 && !(key in order)) {
            printf "host_tier: %s: key %s is not in the template %s\n", FILENAME, key, ARGV[1] > "/dev/stderr"
            failed = 1; exit
        }
        if (file > 1 && (key in kind) && $3 != val[key, 1]) {
            printf "host_tier: %s: %s = %s where the template has %s: not one kind of host\n", FILENAME, key, $3, val[key, 1] > "/dev/stderr"
            failed = 1; exit
        }
        val[key, file] = $3
        cnt[key]++
        if (file == 1) { order[key] = ++nlines; line[nlines] = $0; iskey[nlines] = key; dec[key] = $3 }
        next
    }
    # the template: everything but its own header comments and its name
    file == 1 && FNR == 1 { next }
    file == 1 && /^; / && !seen_section { next }
    file == 1 && /^\[/ { seen_section = 1 }
    file == 1 && /^name = / { line[++nlines] = "name = " name; next }
    file == 1 && /^date = / { line[++nlines] = ""; date_line = nlines; next }
    file == 1 { sub(/ on this host:/, " on each host:"); line[++nlines] = $0 }
    END {
        if (failed) exit failed
        for (k in share_of) if (!(k in order) || !(share_of[k] in order)) {
            printf "host_tier: --share %s=%s: no such key in the template\n", k, share_of[k] > "/dev/stderr"
            exit 2
        }
        # every figure first, so that a refusal prints nothing on stdout
        for (i = 1; i <= nlines; i++) {
            if (!(i in iskey)) continue
            k = iskey[i]
            if (k in share_of) {
                b = share_of[k]
                r = share_median(k, b)
                if (r < 0) { printf "host_tier: no host timed both %s and %s\n", k, b > "/dev/stderr"; exit 1 }
                v[k] = r * median(b)
                note[k] = sprintf("; %s: in %d of the %d host configs; the median of their %s / %s (%.4f) times the %s above",
                                  k, nshare[k], hosts, k, b, r, b)
            } else {
                v[k] = median(k)
                if (cnt[k] != hosts)
                    note[k] = sprintf("; %s: in %d of the %d host configs (cpubench learned it later); the median of those",
                                      k, cnt[k], hosts)
            }
        }
        if (date_line) line[date_line] = "date = " newest
        printf "; %s - the CPU tier of one kind of 16-worker host: every figure below is the median of\n", name
        printf "; that figure over %d host configs, each measured by validate/run_truth.sh cpu-config\n", hosts
        printf "; (itself the median of the runs on that host). Written by validate/cpubench/host_tier.sh from:\n"
        for (i = 1; i <= hosts; i++) printf ";   %s\n", src[i]
        printf "; A key fewer configs timed says so above it; the date is that of the newest.\n"
        printf "; Every value is a measurement or a measured share.\n"
        for (i = 1; i <= nlines; i++) {
            if (!(i in iskey)) { print line[i]; continue }
            k = iskey[i]
            if (k in note) print note[k]
            # keep the template decimals: "0.6705" prints as %.4f
            d = dec[k]; p = index(d, ".") ? length(d) - index(d, ".") : 0
            rest = line[i]; sub(/^[a-z_0-9]+ = [-0-9.e+]+/, "", rest)
            if (d ~ /e/) printf "%s = %g%s\n", k, v[k], rest
            else printf "%s = %.*f%s\n", k, p, v[k], rest
        }
    }' "$@"
