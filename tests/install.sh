#!/usr/bin/env bash
# install.sh - issue 23, INSTALL: `make install` / `make uninstall` with
# PREFIX and DESTDIR, of the binaries already built beside ATOMSIM
# (INSTALL_PREBUILT=1: nothing is rebuilt): the tree it lays out, a user's
# program built through `pkg-config atomsim`, the installed binary finding
# its shipped configs, tables and studies by name from another directory,
# an uninstall that leaves no file, and a PREFIX it cannot write refused
# with one line, exit 2 and nothing half-installed.
set -u
cd "$(dirname "$0")/.."
repo=$(pwd)
A=${ATOMSIM:-build/atomsim}
B=$(dirname "$A")
tmp=$(mktemp -d)
tmp=$(cd "$tmp" && pwd -P)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

if [ ! -x "$A" ] || [ ! -f "$B/libatomsim.a" ]; then
    echo "FAIL $A or $B/libatomsim.a is not built (make $A)"
    exit 1
fi
# the make of `make test` must not lend its jobserver or flags to this one
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES make -s --no-print-directory B="$B" INSTALL_PREBUILT=1 "$@"; }

# the manual pages, from the binaries already built (make man writes no object)
[ -x "$B/vkbench" ] && mk man >/dev/null 2>"$tmp/err"
check_eval "install: make man wrote atomsim.1 and atomsim-config.5 to install" \
    "[ -s $B/man/atomsim.1 ] && [ -s $B/man/atomsim-config.5 ]"

# ---- PREFIX -------------------------------------------------------------
P=$tmp/p
mk install PREFIX="$P" >"$tmp/out" 2>"$tmp/err"
check_eval "install: make install PREFIX=... exits 0, quiet on stderr" "[ \$? -eq 0 ] && [ ! -s $tmp/err ]"
check_eval "install: bin/atomsim, executable" "[ -x $P/bin/atomsim ]"
check_eval "install: lib/libatomsim.a" "cmp -s $B/libatomsim.a $P/lib/libatomsim.a"
check_eval "install: the public headers, and only they" \
    "[ \"\$(cd $P/include && find . -type f | sort)\" = \"\$(cd include && find ./atomsim -name '*.h' | sort)\" ]"
check_eval "install: lib/pkgconfig/atomsim.pc names PREFIX" "grep -qx 'prefix=$P' $P/lib/pkgconfig/atomsim.pc"
check_eval "install: every shipped config and study, and the two tables" \
    "for f in configs/*.ini configs/studies/*.ini tables/h100.json tables/h200.json; do cmp -s \$f $P/share/atomsim/\$f || exit 1; done"
check_eval "install: no internal header anywhere" "[ -z \"\$(find $P -name '*.h' ! -path '$P/include/atomsim/*')\" ]"
for h in vkbench cpubench; do
    [ -x "$B/$h" ] && check_eval "install: bin/$h (built)" "cmp -s $B/$h $P/bin/$h"
done
for m in "$B"/man/*.[1-9]; do
    [ -f "$m" ] && check_eval "install: man page $(basename "$m")" "cmp -s $m $P/share/man/man${m##*.}/$(basename "$m")"
done
check_eval "install: atomsim(1) and atomsim-config(5) among them" \
    "[ -s $P/share/man/man1/atomsim.1 ] && [ -s $P/share/man/man5/atomsim-config.5 ]"

# ---- a user's program through pkg-config -------------------------------
# a sanitizer build's library needs its runtime linked in as well
san=""
nm "$B/libatomsim.a" 2>/dev/null | grep -q __asan_ && san="-fsanitize=address,undefined"
flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs atomsim 2>"$tmp/err")
check_eval "install: pkg-config --cflags --libs atomsim" \
    "[ \$? -eq 0 ] && [ \"\$(echo \$flags)\" = \"-I$P/include -L$P/lib -latomsim -lcjson -linih -lm\" ]"
(cd / && ${CC:-cc} $san -std=c11 -o "$tmp/route" "$repo/examples/route.c" $flags) >"$tmp/out" 2>&1
check_eval "install: examples/route.c builds against the installed library" "[ \$? -eq 0 ] && [ -x $tmp/route ]"
(cd / && "$tmp/route" "$P/share/atomsim/tables/h100.json") >"$tmp/out" 2>"$tmp/err"
check_eval "install: and runs on the installed table" \
    "[ \$? -eq 0 ] && [ ! -s $tmp/err ] && [ \$(grep -c ': run on the [GC]PU$' $tmp/out) -eq 4 ]"

# ---- the installed binary, from elsewhere ------------------------------
(cd / && "$P/bin/atomsim" --version) >"$tmp/out" 2>&1
check_eval "install: the installed atomsim --version from / is the build's" "[ \$? -eq 0 ] && \"$A\" --version | cmp -s - $tmp/out"
(cd / && "$P/bin/atomsim" run --config h100 --pattern counter --engine model --format json) >"$tmp/out" 2>"$tmp/err"
check_eval "install: --config h100 from / reads PREFIX/share/atomsim/configs/h100.ini" \
    "[ \$? -eq 0 ] && grep -q '\"config_path\":[[:space:]]*\"$P/share/atomsim/configs/h100.ini\"' $tmp/out"
(cd / && "$P/bin/atomsim" run --config h100.ini --pattern counter --engine model --format json) >"$tmp/out2" 2>&1
check_eval "install: --config h100.ini the same" "[ \$? -eq 0 ] && cmp -s $tmp/out $tmp/out2"
(cd "$repo" && "$A" run --config configs/h100.ini --pattern counter --engine model) >"$tmp/src" 2>&1
(cd / && "$P/bin/atomsim" run --config h100 --pattern counter --engine model) >"$tmp/out" 2>&1
check_eval "install: and answers as the source tree's config does" "cmp -s $tmp/src $tmp/out"
(cd / && "$P/bin/atomsim" dispatch --table h100 --pattern counter --n 1048576) >"$tmp/out" 2>&1
check_eval "install: dispatch --table h100 reads the installed table" \
    "[ \$? -eq 0 ] && grep -q '^decision: ' $tmp/out"
(cd / && "$P/bin/atomsim" study histogram-bins --count) >"$tmp/out" 2>&1
check_eval "install: study histogram-bins finds the study and its configs" \
    "[ \$? -eq 0 ] && [ \"\$(cat $tmp/out)\" = \"\$(\"$A\" study configs/studies/histogram-bins.ini --count)\" ]"
(cd / && "$P/bin/atomsim" run --config nosuch --pattern counter --engine model) >"$tmp/out" 2>"$tmp/err"
check_eval "install: a name found nowhere: exit 2, the message as before" \
    "[ \$? -eq 2 ] && [ \$(wc -l <$tmp/err) -eq 1 ] && grep -q '^atomsim run: nosuch: cannot open config' $tmp/err"
# the source tree: build/atomsim finds configs/ beside build/
(cd / && "$repo/$A" run --config h100 --pattern counter --engine model) >"$tmp/out" 2>&1
check_eval "install: the source tree's binary finds --config h100 from / too" "cmp -s $tmp/src $tmp/out"

# ---- uninstall ---------------------------------------------------------
mk uninstall PREFIX="$P" >"$tmp/out" 2>"$tmp/err"
check_eval "install: make uninstall exits 0 and leaves no file" \
    "[ \$? -eq 0 ] && [ ! -s $tmp/err ] && [ -z \"\$(find $P ! -type d)\" ]"

# ---- DESTDIR -----------------------------------------------------------
D=$tmp/d
mk install DESTDIR="$D" PREFIX=/usr/local >"$tmp/out" 2>"$tmp/err"
check_eval "install: DESTDIR=... PREFIX=/usr/local exits 0" "[ \$? -eq 0 ] && [ ! -s $tmp/err ]"
check_eval "install: every file lands under DESTDIR/usr/local" \
    "[ -x $D/usr/local/bin/atomsim ] && [ -f $D/usr/local/share/atomsim/configs/h100.ini ] && [ -z \"\$(find $D ! -type d ! -path '$D/usr/local/*')\" ]"
check_eval "install: the staged atomsim.pc names /usr/local, not DESTDIR" \
    "grep -qx 'prefix=/usr/local' $D/usr/local/lib/pkgconfig/atomsim.pc"
(cd / && "$D/usr/local/bin/atomsim" run --config h100 --pattern counter --engine model) >"$tmp/out" 2>&1
check_eval "install: the staged binary finds its configs beside itself" "cmp -s $tmp/src $tmp/out"
mk uninstall DESTDIR="$D" PREFIX=/usr/local >/dev/null 2>&1
check_eval "install: make uninstall DESTDIR=... leaves no file" "[ -z \"\$(find $D ! -type d)\" ]"

# ---- a PREFIX it cannot write -----------------------------------------
# (as root chmod stops nothing: /proc refuses even root a new folder)
mk install PREFIX=/proc/atomsim-install-test >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -v '^make' "$tmp/err" >"$tmp/mine"
check_eval "install: an unwritable PREFIX: exit 2, one line naming it" \
    "[ $rc -eq 2 ] && [ \$(wc -l <$tmp/mine) -eq 1 ] && grep -q '^atomsim install: cannot write to /proc/atomsim-install-test/' $tmp/mine"
# half-writable: share/ is a file, so the data cannot go in: nothing does
Q=$tmp/q
mkdir -p "$Q" && : >"$Q/share"
mk install PREFIX="$Q" >"$tmp/out" 2>"$tmp/err"
rc=$?
grep -v '^make' "$tmp/err" >"$tmp/mine"
check_eval "install: a PREFIX where share/ cannot be made: exit 2, one line" \
    "[ $rc -eq 2 ] && [ \$(wc -l <$tmp/mine) -eq 1 ] && grep -q '^atomsim install: cannot write to $Q/share/' $tmp/mine"
check_eval "install: and nothing half-installed" "[ \"\$(find $Q ! -type d)\" = \"$Q/share\" ]"
finish install
