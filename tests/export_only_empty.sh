#!/usr/bin/env bash
# export_only_empty.sh - `export --only ''` (an empty pattern list) and a
# list of empty names are refused with one line naming --only, exit 2,
# nothing written, rather than an empty table.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
. tests/lib/expect_one_line.sh
expect "export --only ''" 2 "^atomsim export: --only '' is not a comma list of pattern names$" \
    "$A" export --config configs/h100.ini --only ''
expect "export --only ','" 2 "^atomsim export: --only ',' is not a comma list" "$A" export --config configs/h100.ini --only ','
expect "export --only 'counter,'" 2 "^atomsim export: --only" "$A" export --config configs/h100.ini --only 'counter,'
check_eval "nothing was written" "[ -z \"\$(ls $tmp | grep -v -e out -e err)\" ]"
finish export_only_empty
