#!/usr/bin/env bash
# config_keys_fresh.sh - docs/config-keys.md, the config key reference, is
# what `atomsim config --format markdown` writes today, byte for byte (an
# option table edited without `make docs-keys` fails here), and every key
# has a source: one of the six names, never "unset" (the table's zero, a
# key added without deciding where its value comes from), in the Markdown
# and in the `atomsim config` listing alike.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi

rc=0
"$A" config --format markdown >"$tmp/keys.md" 2>"$tmp/err" || rc=$?
check_eval "config --format markdown: exit 0, nothing on stderr" "[ $rc -eq 0 ] && [ ! -s $tmp/err ]"
if [ ! -f docs/config-keys.md ]; then
    bad "docs/config-keys.md is missing (make docs-keys)"
elif cmp -s docs/config-keys.md "$tmp/keys.md"; then
    ok "docs/config-keys.md is what atomsim config --format markdown writes"
else
    bad "docs/config-keys.md is what atomsim config --format markdown writes (make docs-keys refreshes it)"
    diff docs/config-keys.md "$tmp/keys.md" | head -8 | sed 's/^/       /'
fi

sources='spec|microbenchmark|calibrate|hand|estimate|setting|label'
# The table's rows: "| section | key | type | default | unit | bounds | source | help |"
# (no cell holds an unescaped '|'), minus the header and the rule under it.
awk -F' \\| ' '/^\| / && !/^\| section \|/ && !/^\| --- / { print $1 "." $2, $7, NF }' "$tmp/keys.md" |
    sed 's/^| //' >"$tmp/md_rows"
check_eval "every row of the key reference has its eight cells" \
    "[ \$(wc -l <$tmp/md_rows) -gt 0 ] && [ \$(awk '\$3 != 8' $tmp/md_rows | wc -l) -eq 0 ]"
unsourced=$(awk -v re="^($sources)\$" '$2 !~ re { print $1 "=" $2 }' "$tmp/md_rows" | tr '\n' ' ')
check_eval "every key in the reference has a source${unsourced:+ (not: $unsourced)}" "[ -z '$unsourced' ]"

rc=0
"$A" config >"$tmp/list" 2>"$tmp/err" || rc=$?
check_eval "config: exit 0" "[ $rc -eq 0 ]"
# The listing's words: key, type, default, unit (none for some keys), source,
# help; no default or unit is a source name, "unset" included, so the source
# is the fourth word or else the fifth ("?" when neither is one).
awk -v re="^($sources|unset)\$" 'NR > 1 { print $1, ($4 ~ re ? $4 : $5 ~ re ? $5 : "?") }' "$tmp/list" >"$tmp/list_rows"
unsourced=$(awk -v re="^($sources)\$" '$2 !~ re { print $1 "=" $2 }' "$tmp/list_rows" | tr '\n' ' ')
check_eval "every key in the listing has a source${unsourced:+ (not: $unsourced)}" "[ -z '$unsourced' ]"
check_eval "the listing and the reference name the same keys with the same sources" \
    "cmp -s <(cut -d' ' -f1,2 $tmp/md_rows) $tmp/list_rows"
check_eval "config --dump sets the same keys" \
    "cmp -s <(\"$A\" config --dump | awk '/^\\[/ { gsub(/[][]/, \"\"); s = \$0 } /^[a-z_0-9]+ = / { print s \".\" \$1 }') \
            <(cut -d' ' -f1 $tmp/md_rows)"
finish config_keys_fresh
