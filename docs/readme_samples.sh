#!/usr/bin/env bash
# readme_samples.sh - regenerates the sample outputs in README.md, so that
# they cannot go stale.  A sample is a block between two marker lines:
#
#   <!-- sample: NAME -->
#   ```
#   $ COMMAND
#   (what COMMAND prints)
#   ```
#   <!-- /sample -->
#
# Every line of the block that starts with "$ " is a command; everything
# else in the block is replaced by what the commands print on stdout, each
# command's output right after it.  Commands run from the repository root
# with bash; "build/atomsim" in a command runs $ATOMSIM (default
# build/atomsim), and "make run" runs the Makefile's run recipe (without
# the build).  A command that exits non-zero, an unknown or repeated NAME
# or a block left open fails the script (exit 1), leaving the file alone.
# Only quick, deterministic commands belong in samples (a few seconds in
# all, no timings): the same config, parameters and seed print the same
# bytes.
#
# usage: docs/readme_samples.sh [--print] [FILE]   (FILE: README.md)
#   rewrites FILE in place; with --print, writes the result to stdout
#   instead (tests/readme_samples.sh compares it with FILE).
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
print=0
if [ "${1:-}" = "--print" ]; then print=1; shift; fi
file=${1:-README.md}
# what `make run` runs once the binary is built (the Makefile's run target)
make_run="bash app/default_study.sh build/atomsim configs/h100.ini"

if [ ! -x "$A" ]; then
    echo "readme_samples: $A is not built (make)" >&2
    exit 1
fi
if [ ! -f "$file" ]; then
    echo "readme_samples: no file $file" >&2
    exit 1
fi

out=$(mktemp)
trap 'rm -f "$out"' EXIT

# runs one command line as the sample states it, output to stdout
# (output that names the binary names it as the README does, build/atomsim,
# whichever build ran it: make asan runs these with build-asan/atomsim)
run_sample_command() {
    local cmd=$1 rc=0
    [ "$cmd" = "make run" ] && cmd=$make_run
    cmd=${cmd//build\/atomsim/$A}
    bash -c "set -o pipefail; $cmd" </dev/null >"$out.cmd" || rc=$?
    if [ "$A" = build/atomsim ]; then cat "$out.cmd"; else awk -v a="$A" '{ while ((i = index($0, a)) > 0) $0 = substr($0, 1, i - 1) "build/atomsim" substr($0, i + length(a)); print }' "$out.cmd"; fi
    rm -f "$out.cmd"
    return $rc
}

status=0
in_block=0
name=""
seen=" "
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
    lineno=$((lineno + 1))
    if [ $in_block = 0 ]; then
        printf '%s\n' "$line" >>"$out"
        if [[ "$line" =~ ^\<!--\ sample:\ ([A-Za-z0-9_-]+)\ --\>$ ]]; then
            name=${BASH_REMATCH[1]}
            if [[ "$seen" == *" $name "* ]]; then
                echo "readme_samples: $file:$lineno: sample $name appears twice" >&2
                status=1
            fi
            seen="$seen$name "
            in_block=1
            cmds=()
            fence=""
        fi
        continue
    fi
    # inside a block: collect the fence and the commands until the end marker
    if [ "$line" = "<!-- /sample -->" ]; then
        if [ ${#cmds[@]} = 0 ]; then
            echo "readme_samples: $file:$lineno: sample $name has no \$ command" >&2
            status=1
        fi
        printf '%s\n' "${fence:-\`\`\`}" >>"$out"
        for c in "${cmds[@]}"; do
            printf '$ %s\n' "$c" >>"$out"
            if ! run_sample_command "$c" >>"$out"; then
                echo "readme_samples: sample $name: command failed: $c" >&2
                status=1
            fi
        done
        printf '%s\n' '```' >>"$out"
        printf '%s\n' "$line" >>"$out"
        in_block=0
        continue
    fi
    if [ -z "$fence" ] && [[ "$line" == '```'* ]]; then
        fence=$line
    elif [[ "$line" == '$ '* ]]; then
        cmds+=("${line#\$ }")
    fi
done <"$file"

if [ $in_block = 1 ]; then
    echo "readme_samples: $file: sample $name has no <!-- /sample --> line" >&2
    status=1
fi
[ $status = 0 ] || exit 1
if [ $print = 1 ]; then
    cat "$out"
else
    cp "$out" "$file"
fi
