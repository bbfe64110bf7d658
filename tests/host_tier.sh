#!/usr/bin/env bash
# host_tier.sh - validate/cpubench/host_tier.sh, which makes one kind of
# host's CPU tier from several hosts' configs: each figure the median over
# the hosts, a key some hosts lack the median over those that have it (and
# a comment says so), a --share key the median share of its base times the
# tier's base; refusals print one line and nothing on stdout; and the
# committed H200-host tier is what its committed host configs give.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
T=validate/cpubench/host_tier.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

# three hosts: the template times bitmask, the second too, the third not
base=configs/cpu-h200host-16core.ini
sed -E 's/^key_ns = [0-9.]+/key_ns = 1.0000/; s/^bitmask_ns = [0-9.]+/bitmask_ns = 1.2000/; s/^copy_gbps = [0-9.]+/copy_gbps = 80.000/' \
    "$base" | grep -v '^;' >"$tmp/a.ini"
sed -E 's/^key_ns = [0-9.]+/key_ns = 2.0000/; s/^bitmask_ns = [0-9.]+/bitmask_ns = 2.6000/; s/^copy_gbps = [0-9.]+/copy_gbps = 120.000/' \
    "$base" | grep -v '^;' >"$tmp/b.ini"
sed -E 's/^key_ns = [0-9.]+/key_ns = 4.0000/; s/^copy_gbps = [0-9.]+/copy_gbps = 100.000/' "$base" | grep -v '^;' |
    grep -v '^bitmask_ns' >"$tmp/c.ini"
rc=0
bash "$T" --name cpu-test "$tmp/a.ini" "$tmp/b.ini" "$tmp/c.ini" >"$tmp/m.ini" 2>"$tmp/err" || rc=$?
check "three hosts: exit 0, nothing on stderr" test "$rc" -eq 0 -a ! -s "$tmp/err"
check "key_ns is the middle host's" grep -q '^key_ns = 2.0000 ; ' "$tmp/m.ini"
check "copy_gbps is the middle host's" grep -q '^copy_gbps = 100.000 ; ' "$tmp/m.ini"
check "a key two of three hosts have: the mean of those two" grep -q '^bitmask_ns = 1.9000 ; ' "$tmp/m.ini"
check "... and a comment says so" grep -q '^; bitmask_ns: in 2 of the 3 host configs' "$tmp/m.ini"
check "the name is the tier's" grep -q '^name = cpu-test$' "$tmp/m.ini"
check "the header names every host" test "$(grep -c "^;   $tmp/" "$tmp/m.ini")" -eq 3
rc=0
bash "$T" --name cpu-test --share bitmask_ns=key_ns "$tmp/a.ini" "$tmp/b.ini" "$tmp/c.ini" >"$tmp/s.ini" 2>"$tmp/err" || rc=$?
check "a share: exit 0" test "$rc" -eq 0
# shares 1.2 and 1.3: the median 1.25 times the tier's key_ns 2.0
check "a share: the median share times the tier's base" grep -q '^bitmask_ns = 2.5000 ; ' "$tmp/s.ini"
check "... and a comment says so" grep -q '^; bitmask_ns: in 2 of the 3 host configs; the median of their bitmask_ns / key_ns (1.2500)' "$tmp/s.ini"
# a share counts the hosts that timed both with a base above 0, not the key's hosts
sed -E 's/^key_ns = [0-9.]+/key_ns = 0.0000/' "$tmp/a.ini" >"$tmp/z.ini"
bash "$T" --name cpu-test --share bitmask_ns=key_ns "$tmp/z.ini" "$tmp/b.ini" "$tmp/c.ini" >"$tmp/z3.ini" 2>"$tmp/err"
check "a share: only hosts with both, the base above 0 (1.3 x key_ns 2.0)" grep -q '^bitmask_ns = 2.6000 ; ' "$tmp/z3.ini"
check "... and the comment counts them" grep -q '^; bitmask_ns: in 1 of the 3 host configs; the median of their bitmask_ns / key_ns (1.3000)' "$tmp/z3.ini"
# the date is the newest host's, whichever file comes first
sed -i -E 's/^date = .*/date = 2026-01-02T00:00:00Z/' "$tmp/a.ini"
sed -i -E 's/^date = .*/date = 2026-03-04T00:00:00Z/' "$tmp/b.ini"
sed -i -E 's/^date = .*/date = 2026-02-03T00:00:00Z/' "$tmp/c.ini"
bash "$T" --name cpu-test "$tmp/a.ini" "$tmp/b.ini" "$tmp/c.ini" >"$tmp/d.ini" 2>/dev/null
check "the date is the newest host's" grep -q '^date = 2026-03-04T00:00:00Z$' "$tmp/d.ini"
# a figure written with an exponent keeps that form
for f in a b c; do cp "$tmp/$f.ini" "$tmp/e$f.ini"; done
sed -i -E 's/^update_same_bin_ns = [0-9.]+/update_same_bin_ns = 3e-05/' "$tmp/ea.ini"
sed -i -E 's/^update_same_bin_ns = [0-9.]+/update_same_bin_ns = 1e-05/' "$tmp/eb.ini"
sed -i -E 's/^update_same_bin_ns = [0-9.]+/update_same_bin_ns = 2e-05/' "$tmp/ec.ini"
bash "$T" --name cpu-test "$tmp/ea.ini" "$tmp/eb.ini" "$tmp/ec.ini" >"$tmp/e.ini" 2>/dev/null
check "an exponent figure: the median, as %g" grep -q '^update_same_bin_ns = 2e-05 ; ' "$tmp/e.ini"
"$A" export --config configs/h200.ini --cpu "$tmp/s.ini" --only counter --format csv --output "$tmp/t.csv" 2>"$tmp/err"
check "the tier loads as a CPU config" test -s "$tmp/t.csv"

# refusals: nothing on stdout, one line on stderr, non-zero exit
refuse() { local name=$1; shift; check_refuses "$name" bash "$T" "$@"; }
refuse "a key the template lacks" --name x "$tmp/c.ini" "$tmp/a.ini"
refuse "a share of a key no host has" --name x --share nope_ns=key_ns "$tmp/a.ini" "$tmp/b.ini"
refuse "a share without its base" --name x --share bitmask_ns "$tmp/a.ini" "$tmp/b.ini"
sed -E 's/^key_ns = [0-9.]+/key_ns = 0.0000/' "$tmp/a.ini" >"$tmp/a0.ini"
refuse "a share no host timed both of (a base of 0 is no base)" --name x --share bitmask_ns=key_ns "$tmp/a0.ini" "$tmp/c.ini"
refuse "an unreadable host" --name x "$tmp/a.ini" "$tmp/missing.ini"
refuse "no name" "$tmp/a.ini" "$tmp/b.ini"
refuse "a single host" --name x "$tmp/a.ini"
: >"$tmp/empty.ini"
refuse "an empty host file" --name x "$tmp/a.ini" "$tmp/empty.ini"
sed -E 's/^workers = [0-9]+/workers = 8/' "$tmp/b.ini" >"$tmp/w8.ini"
refuse "a host of another width (workers)" --name x "$tmp/a.ini" "$tmp/w8.ini"
sed -E 's/^l2_bytes = [0-9]+/l2_bytes = 1048576/' "$tmp/b.ini" >"$tmp/l2.ini"
refuse "a host of another cache (l2_bytes)" --name x "$tmp/a.ini" "$tmp/l2.ini"
sed -E 's/^cpu_model = .*/cpu_model = AMD EPYC/' "$tmp/b.ini" >"$tmp/amd.ini"
refuse "a host of another CPU model" --name x "$tmp/a.ini" "$tmp/amd.ini"

# the shipped tier is what its hosts give (make cpu-tier-h200 rewrites it)
# shellcheck disable=SC2046
bash "$T" $(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory tier-args-h200) >"$tmp/h200.ini" 2>"$tmp/err"
check "configs/cpu-h200host-16core.ini is what its host configs give" cmp -s "$tmp/h200.ini" "$base"
finish host_tier
