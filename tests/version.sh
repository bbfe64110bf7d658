#!/usr/bin/env bash
# version.sh - issue 23, VERSION: `atomsim --version` (and `atomsim
# version`), `vkbench --version` and `cpubench --version` print which build
# they are on stdout and exit 0: the version (`git describe --tags --always
# --dirty` in a checkout, else the VERSION file), the compiler and flags,
# and for atomsim the option table's hash.  ATOMSIM, VKBENCH and CPUBENCH
# name the binaries (make test sets them).
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
V=${VKBENCH:-$(dirname "$A")/vkbench}
C=${CPUBENCH:-$(dirname "$A")/cpubench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

# what the build should have said (util/version.mk's rule)
want=$(git describe --tags --always --dirty 2>/dev/null) || want=""
[ -n "$want" ] || want=$( { [ -r VERSION ] && head -1 VERSION; } || echo unknown)

"$A" --version >"$tmp/out" 2>"$tmp/err"
check_eval "version: atomsim --version exits 0, quiet on stderr" "[ \$? -eq 0 ] && [ ! -s $tmp/err ]"
check_eval "version: atomsim --version names the version first" "[ \"\$(head -1 $tmp/out)\" = \"atomsim $want\" ]"
check_eval "version: atomsim --version names the compiler" "grep -Eq '^compiler: .*[0-9]+\.[0-9]+' $tmp/out"
check_eval "version: atomsim --version names the flags" "grep -Eq '^flags: .*-std=c11' $tmp/out"
check_eval "version: atomsim --version names the option table's hash and size" \
    "grep -Eq '^option_table: [0-9a-f]{16} \([0-9]+ keys\)$' $tmp/out"
check_eval "version: the key count is the option table's" \
    "[ \"\$(sed -n 's/.*(\([0-9]*\) keys)/\1/p' $tmp/out)\" = \"\$(\"$A\" config | grep -Ec '^[a-z_0-9]+\\.[a-z_0-9]+ ')\" ]"
check_eval "version: four lines, nothing else" "[ \$(wc -l <$tmp/out) -eq 4 ]"
"$A" version >"$tmp/out2" 2>&1
check_eval "version: atomsim version says the same" "[ \$? -eq 0 ] && cmp -s $tmp/out $tmp/out2"
"$A" version extra >"$tmp/out2" 2>"$tmp/err"
check_eval "version: atomsim version with an argument: exit 2, one line" \
    "[ \$? -eq 2 ] && [ ! -s $tmp/out2 ] && [ \$(wc -l <$tmp/err) -eq 1 ] && grep -q '^atomsim version: ' $tmp/err"
check_eval "version: atomsim --help lists it" "\"$A\" --help | grep -q '^  version '"

for h in "$V" "$C"; do
    n=$(basename "$h")
    if [ ! -x "$h" ]; then
        bad "version: $h is not built (make $h)"
        continue
    fi
    "$h" --version >"$tmp/out" 2>"$tmp/err"
    check_eval "version: $n --version exits 0, quiet on stderr" "[ \$? -eq 0 ] && [ ! -s $tmp/err ]"
    check_eval "version: $n --version names the version first" "[ \"\$(head -1 $tmp/out)\" = \"$n $want\" ]"
    check_eval "version: $n --version names the compiler and flags" \
        "grep -Eq '^compiler: .*[0-9]+\.[0-9]+' $tmp/out && grep -Eq '^flags: .*-std=c11' $tmp/out"
done
finish version
