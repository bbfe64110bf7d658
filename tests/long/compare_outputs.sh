#!/usr/bin/env bash
# compare_outputs.sh - the same commands through two builds of atomsim,
# stdout, stderr and exit status compared: "valid input gives the output it
# gave before" (the hardening issue), beyond the golden cases.  Not part of
# make test (it needs a second build).
#
#   tests/long/compare_outputs.sh OLD_TREE NEW_TREE
#
# Each tree is a checkout with build/atomsim built.  The commands are
# tests/long/compare_outputs.cmds, one a line, run from each tree's root
# (OUTDIR stands for a fresh folder whose files join the output).  MASK, a
# space-separated list of JSON or INI key names, drops those keys' lines and
# JSON members before comparing: a key added on purpose, or "version".
set -u
[ $# = 2 ] || { echo "usage: tests/long/compare_outputs.sh OLD_TREE NEW_TREE" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mask() { # FILE: drops MASK's keys, as JSON members and as INI or text lines
    [ -n "${MASK:-}" ] || return 0
    python3 - "$1" "$MASK" <<'PY'
import re, sys
path, keys = sys.argv[1], sys.argv[2].split()
s = open(path, encoding="latin1").read()
for k in keys:
    s = re.sub(r',\s*"%s":\s*("[^"]*"|[-+0-9.eE]+)' % re.escape(k), "", s)
    s = re.sub(r'"%s":\s*("[^"]*"|[-+0-9.eE]+),\s*' % re.escape(k), "", s)
    s = re.sub(r"\n[^\n]*\b%s\b[^\n]*" % re.escape(k), "", s)
open(path, "w", encoding="latin1").write(s)
PY
}
same=0 differ=0
while IFS= read -r c; do
    [ -z "$c" ] && continue
    for t in old new; do
        tree=$([ $t = old ] && echo "$1" || echo "$2")
        od=$(mktemp -d)
        (cd "$tree" && eval "build/atomsim ${c//OUTDIR/$od}" >"$tmp/$t.out" 2>"$tmp/$t.err"; echo $? >"$tmp/$t.rc")
        cat "$od"/* >>"$tmp/$t.out" 2>/dev/null
        rm -rf "$od"
        mask "$tmp/$t.out"
    done
    if cmp -s "$tmp/old.out" "$tmp/new.out" && cmp -s "$tmp/old.err" "$tmp/new.err" && cmp -s "$tmp/old.rc" "$tmp/new.rc"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        echo "differs: atomsim $c"
        diff "$tmp/old.out" "$tmp/new.out" | head -4 | sed 's/^/    /'
        diff "$tmp/old.err" "$tmp/new.err" | head -2 | sed 's/^/    /'
    fi
done <"$here/compare_outputs.cmds"
echo "compare_outputs: $same same, $differ differ"
[ $differ = 0 ]
