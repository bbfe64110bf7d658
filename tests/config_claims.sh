#!/usr/bin/env bash
# config_claims.sh - no config comment claims a calibration that no file
# records (the generalization issue): a key whose comment in configs/*.ini
# says "calibrated" must be set by a calibration overlay the config reads
# (configs/*.calibrated.ini, written by `atomsim calibrate`), gpu.trust
# aside, which states the config's calibration as a whole; and every key an
# overlay sets has the option table's source calibrate, so that the key
# reference (docs/config-keys.md) names the keys `atomsim calibrate` fits.
# ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

# section.key lines of an INI file, with the comment after the key's value
keys() { awk '/^[[:space:]]*\[/ { s = $0; gsub(/[][[:space:]]/, "", s); next }
    /^[[:space:]]*[a-z_0-9]+[[:space:]]*=/ && s != "" {
        k = $0; sub(/[[:space:]]*=.*/, "", k); gsub(/[[:space:]]/, "", k)
        c = index($0, ";") ? substr($0, index($0, ";") + 1) : ""
        print s "." k "\t" c }' "$1"; }

for o in configs/*.calibrated.ini; do keys "$o"; done | cut -f1 | sort -u >"$tmp/fitted"
check "the overlays set some keys ($(wc -l <"$tmp/fitted"))" test -s "$tmp/fitted"
: >"$tmp/claims"
for f in configs/*.ini; do
    case $f in *.calibrated.ini) continue ;; esac
    keys "$f" | awk -F'\t' -v f="$f" 'tolower($2) ~ /calibrated/ && $1 != "gpu.trust" { print f ": " $1 }' >>"$tmp/claims"
done
unrecorded=$(while read -r f k; do grep -qx "$k" "$tmp/fitted" || echo "$f $k"; done <"$tmp/claims")
check "every key whose comment says calibrated is set by an overlay ($(wc -l <"$tmp/claims") claims${unrecorded:+; not: $(echo $unrecorded)})" \
    test -z "$unrecorded"

"$A" config --format markdown >"$tmp/keys.md" 2>/dev/null
awk -F'|' 'NF > 8 { s = $2; k = $3; src = $8; gsub(/ /, "", s); gsub(/ /, "", k); gsub(/ /, "", src); print s "." k "\t" src }' \
    "$tmp/keys.md" >"$tmp/sources"
check "the option table lists the keys with their source" test "$(wc -l <"$tmp/sources")" -gt 50
bad=$(while read -r k; do awk -F'\t' -v k="$k" '$1 == k && $2 != "calibrate" { print k " (" $2 ")" }' "$tmp/sources"; done <"$tmp/fitted")
check "every key an overlay sets has source calibrate${bad:+ (not: $(echo $bad))}" test -z "$bad"

# the negative control: a claim the overlays do not record is caught
printf '[core]\nbarrier_cycles = 20 ; calibrated against validate/data/h100.csv\n' >"$tmp/x.ini"
neg=$(keys "$tmp/x.ini" | awk -F'\t' 'tolower($2) ~ /calibrated/ { print $1 }' | while read -r k; do grep -qx "$k" "$tmp/fitted" || echo "$k"; done)
check "control: an unrecorded claim is found" test "$neg" = core.barrier_cycles

finish
