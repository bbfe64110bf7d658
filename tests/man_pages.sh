#!/usr/bin/env bash
# man_pages.sh - the manual pages `make man` writes (atomsim help-man,
# app/man_page.c) are clean roff and cannot drift from the code: each page
# passes `mandoc -T lint -W warning` with nothing to say, atomsim-config(5)
# names every key `atomsim config` lists, atomsim(1) every command of
# `atomsim --help`, and each command's page every flag its --help names
# (check's modes included; vkbench(1) every flag of `vkbench --help`).
# The checks are shown to bite: a page missing a flag, and one with a bad
# macro, fail them.  Roff specials in a help text come out escaped.
# ATOMSIM and VKBENCH may name the binaries.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
V=${VKBENCH:-build/vkbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"
export SOURCE_DATE_EPOCH=0

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
if ! command -v mandoc >/dev/null; then
    echo "FAIL mandoc is not installed (make deps installs it)"
    exit 1
fi

# lint PAGE: mandoc's warnings and errors, empty when clean
lint() { mandoc -T lint -W warning "$1" 2>&1; }
# text PAGE: the page as a reader sees it, without the overstrike
text() { mandoc -T ascii "$1" | sed 's/.\x08//g'; }
# flags HELPTEXT: every flag a --help text names, one a line
flags() {
    grep -oE -- '(^|[^a-zA-Z0-9-])--?[a-zA-Z][a-z0-9-]*' "$1" | sed -E 's/^[^-]+//; s/-+$//' |
        grep -E '^(--[a-z][a-z0-9-]*|-[a-zA-Z])$' | sort -u
}
# missing HELPTEXT PAGETEXT: the flags of the help the page never shows
missing() {
    local f
    for f in $(flags "$1"); do
        grep -qE -- "(^|[^a-zA-Z0-9-])$f([^a-z0-9-]|\$)" "$2" || printf '%s ' "$f"
    done
}

rc=0
"$A" help-man --list >"$tmp/list" 2>"$tmp/err" || rc=$?
check_eval "help-man --list: exit 0, atomsim.1 and atomsim-config.5 among the pages" \
    "[ $rc -eq 0 ] && grep -qx atomsim.1 $tmp/list && grep -qx atomsim-config.5 $tmp/list"
bad_pages=""
for p in $(cat "$tmp/list"); do
    "$A" help-man "$p" >"$tmp/$p" 2>"$tmp/err" && [ -s "$tmp/$p" ] && [ ! -s "$tmp/err" ] || bad_pages="$bad_pages $p"
done
check_eval "every page is written, exit 0, nothing on stderr${bad_pages:+ (not:$bad_pages)}" "[ -z '$bad_pages' ]"
if [ -x "$V" ]; then
    "$V" --help >"$tmp/vkbench.help" && "$A" help-man vkbench "$tmp/vkbench.help" >"$tmp/vkbench.1"
    check_eval "vkbench.1 is written from vkbench --help" "[ -s $tmp/vkbench.1 ]"
else
    echo "note: $V is not built; vkbench.1 not checked"
fi

for p in "$tmp"/*.[15]; do
    name=$(basename "$p")
    out=$(lint "$p")
    check_eval "mandoc -T lint -W warning: $name is clean${out:+ ($out)}" "[ -z \"\$out\" ]"
    text "$p" >"$p.txt"
done
# a request line that is none of the macros the generator writes would be
# a help text's '.' or '\'' read as roff
stray=$(grep -lvE '^(\.(TH|SH|SS|TP|PP|nf|fi|br)( |$)|\.\\"|[^.'"'"'])' "$tmp"/*.[15] 2>/dev/null | xargs -r -n1 basename | tr '\n' ' ')
check_eval "no line of a page starts a request the generator did not mean${stray:+ (in: $stray)}" "[ -z '$stray' ]"

# SEE ALSO: every other page, never the page itself
selfref=""
for p in "$tmp"/*.[15]; do
    name=$(basename "$p")
    sed -n '/^SEE ALSO/,/^[A-Z]/p' "$p.txt" | grep -qF "${name%.*}(${name##*.})" && selfref="$selfref $name"
done
check_eval "no page lists itself under SEE ALSO${selfref:+ (do:$selfref)}" "[ -z '$selfref' ]"

# atomsim-config(5): every key of the option table
"$A" config | awk 'NR > 1 { print $1 }' >"$tmp/keys"
nokey=""
for k in $(cat "$tmp/keys"); do
    grep -qwF -- "$k" "$tmp/atomsim-config.5.txt" || nokey="$nokey $k"
done
check_eval "atomsim-config.5 names all $(wc -l <"$tmp/keys") keys of atomsim config${nokey:+ (not:$nokey)}" \
    "[ -s $tmp/keys ] && [ -z '$nokey' ]"
check_eval "atomsim-config.5 gives l2.slice_count's unit, bounds, default and source" \
    "grep -A3 -w 'l2.slice_count' $tmp/atomsim-config.5.txt | tr -s ' \n' ' ' | grep -qE 'Type int, unit [a-z]+, bounds \[[0-9]+, [0-9]+\], default [0-9]+, source [a-z]+'"

# atomsim(1): every command, and a page for each
"$A" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }' >"$tmp/cmds"
nocmd=""
for c in $(cat "$tmp/cmds"); do
    grep -qF "atomsim-$c(1)" "$tmp/atomsim.1.txt" && grep -qE "^ +$c( |\$)" "$tmp/atomsim.1.txt" &&
        grep -qx "atomsim-$c.1" "$tmp/list" || nocmd="$nocmd $c"
done
check_eval "atomsim.1 lists all $(wc -l <"$tmp/cmds") commands, each with its page${nocmd:+ (not:$nocmd)}" \
    "[ -s $tmp/cmds ] && [ -z '$nocmd' ]"
noparam=""
for f in $("$A" run --help | grep -oE -- '\[--[a-z-]+ [A-Z]+\]' | grep -oE -- '--[a-z-]+'); do
    grep -qE -- "^ +$f [A-Z]" "$tmp/atomsim.1.txt" || noparam="$noparam $f"
done
check_eval "atomsim.1 describes every pattern parameter${noparam:+ (not:$noparam)}" "[ -z '$noparam' ]"

# each command's page: every flag its --help (and its modes') names
for c in $(cat "$tmp/cmds"); do
    "$A" "$c" --help >"$tmp/$c.help"
    [ "$c" = check ] && { "$A" check --routing --help; "$A" check --against sim --help; } >>"$tmp/$c.help"
    lost=$(missing "$tmp/$c.help" "$tmp/atomsim-$c.1.txt")
    check_eval "atomsim-$c.1 shows all $(flags "$tmp/$c.help" | wc -l) flags of its --help${lost:+ (not: $lost)}" \
        "[ -z '$lost' ]"
done
if [ -s "$tmp/vkbench.1" ]; then
    lost=$(missing "$tmp/vkbench.help" "$tmp/vkbench.1.txt")
    check_eval "vkbench.1 shows all $(flags "$tmp/vkbench.help" | wc -l) flags of vkbench --help${lost:+ (not: $lost)}" \
        "[ -z '$lost' ]"
fi

# the checks bite: a page that lost a flag, a page with a bad macro
grep -v 'keep\\-going' "$tmp/atomsim-sweep.1" >"$tmp/lost.1"
text "$tmp/lost.1" >"$tmp/lost.txt"
check_eval "a sweep page without --keep-going fails the flag check" \
    "[ \"\$(missing $tmp/sweep.help $tmp/lost.txt)\" = '--keep-going ' ]"
printf '.TH X 1\n.SH NAME\nx \\- y\n.BOGUS\n' >"$tmp/bad.1"
check_eval "a page with an unknown macro fails the lint" "[ -n \"\$(lint $tmp/bad.1)\" ]"

# roff specials in a help text are escaped: a leading '.' or '\'', a
# backslash, a flag's hyphens
printf "usage: vkbench --x\n.leading dot\n'leading quote\nback\\\\slash --some-flag\n  --item  text\n" >"$tmp/specials.help"
rc=0
"$A" help-man vkbench "$tmp/specials.help" >"$tmp/specials.1" 2>&1 || rc=$?
check_eval "help-man vkbench FILE: exit 0" "[ $rc -eq 0 ]"
check_eval "a help line starting with '.' or '\\'' is escaped with \\&" \
    "grep -qxF '\\&.leading dot' $tmp/specials.1 && grep -qxF \"\\\\&'leading quote\" $tmp/specials.1"
check_eval "a backslash is \\e and a flag's hyphens \\-" "grep -qF 'back\\eslash \\-\\-some\\-flag' $tmp/specials.1"
out=$(lint "$tmp/specials.1")
check_eval "the page of that help text is clean${out:+ ($out)}" "[ -z \"\$out\" ]"

rc=0
"$A" help-man nosuchpage >/dev/null 2>"$tmp/err" || rc=$?
check_eval "help-man of an unknown page: exit 2, one line" \
    "[ $rc -eq 2 ] && [ \$(wc -l <$tmp/err) -eq 1 ] && grep -q \"unknown page 'nosuchpage'\" $tmp/err"
rc=0
"$A" help-man >/dev/null 2>"$tmp/err" || rc=$?
check_eval "help-man without a page: exit 2, one line" "[ $rc -eq 2 ] && [ \$(wc -l <$tmp/err) -eq 1 ]"
finish man_pages
