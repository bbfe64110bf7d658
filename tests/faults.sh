#!/usr/bin/env bash
# faults.sh - fault injection (hardening issue 24, audit items 1-7): stdout
# on a full disk (/dev/full) or closed, output files that cannot be written,
# SIGINT and SIGTERM during `sweep -j 2` and `study`, a parent killed under
# its workers, a worker killed by a signal, two study outputs on one file,
# and readers handed a non-regular or unreadable file.  Every case must exit
# non-zero with exactly one line on stderr and leave nothing half-written:
# no cut-off last row, no output file replaced by part of one, no temporary
# left beside it, no worker left running.  Every command runs under
# `timeout`, so no case can hang.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
T="timeout -k 5 60"

# expect NAME STATUS REGEX STDOUT -- COMMAND...: exit STATUS, exactly one
# line on stderr, matching REGEX; the command's stdout goes to /dev/full
# (STDOUT "full"), nowhere (closed, "closed") or a file.
expect() {
    local name=$1 want=$2 re=$3 to=$4 got=0
    shift 5
    case $to in
    full) "$@" >/dev/full 2>"$tmp/err" || got=$? ;;
    closed) "$@" >&- 2>"$tmp/err" || got=$? ;;
    *) "$@" >"$tmp/out" 2>"$tmp/err" || got=$? ;;
    esac
    local lines
    lines=$(wc -l <"$tmp/err")
    if [ "$got" = "$want" ] && [ "$lines" -eq 1 ] && grep -Eq -- "$re" "$tmp/err"; then
        ok "$name"
    else
        bad "$name: exit $got (want $want), $lines stderr lines (want 1 matching /$re/)"
        sed 's/^/       stderr: /' "$tmp/err" | head -3
    fi
}

# ---- item 1: stdout on a full disk, or closed ---------------------------------
# Each of these exited 0 (or 1 with nothing said) before: the output lost.
H=validate/data/h100.csv
C=configs/h100.ini
stdout_cmds=(
    "config"
    "config --config $C --dump"
    "validate --config $C --data $H --engine model"
    "validate --config $C --data $H --engine model --format csv"
    "check --quick"
    "--help"
    "run --pattern counter --n 1000 --engine model"
    "dispatch --table tables/h100.json --pattern counter"
    "sweep --pattern counter --n 1000,2000 --count"
    "sweep --pattern counter --n 1000,2000 --engine model"
    "sweep --pattern counter --n 1000,2000 --engine model --format json"
    "study configs/studies/whatif-l2.ini --stdout --count"
    "export --config $C --only counter"
    "plan --random --seed 1 --rows 50"
)
for c in run config sweep study validate calibrate export dispatch check plan; do
    stdout_cmds+=("$c --help")
done
for c in "${stdout_cmds[@]}"; do
    # shellcheck disable=SC2086
    expect "item1 full disk: atomsim $c" 1 "^atomsim( [a-z]+)?: writing standard output: No space left on device$" full -- \
        $T "$A" $c
    # shellcheck disable=SC2086
    expect "item1 closed stdout: atomsim $c" 1 "^atomsim( [a-z]+)?: writing standard output: Bad file descriptor$" closed -- \
        $T "$A" $c
done

# ---- item 6: output files: written whole or not at all -------------------------
expect "item6 export --output /dev/full" 1 "/dev/full: cannot write: No space left on device" file -- \
    $T "$A" export --config $C --only counter --output /dev/full
expect "item6 plan --output /dev/full" 1 "/dev/full: cannot write: No space left on device" file -- \
    $T "$A" plan --random --seed 1 --rows 50 --output /dev/full
printf '[study]\nversion = 1\n[grid]\npattern = histogram\nn = 65536\nbins = 1..3000\nengine = model\n[outputs]\ncsv = full\n' >"$tmp/full.ini"
expect "item6 study output on a full disk" 1 "^atomsim study: /dev/full: cannot write: No space left on device$" file -- \
    $T "$A" study "$tmp/full.ini" --out-dir /dev -j 2 --no-progress
mkdir -p "$tmp/adir"
expect "item6 export --output a directory" 2 "adir: cannot write: Is a directory" file -- \
    $T "$A" export --config $C --only counter --output "$tmp/adir"
expect "item6 export --output in a missing directory" 2 "cannot write: No such file or directory" file -- \
    $T "$A" export --config $C --only counter --output "$tmp/nodir/t.json"
check_eval "item6 nothing left beside the outputs" '[ -z "$(ls -A "$tmp/adir")" ] && [ ! -e "$tmp/nodir" ]'
# a good run leaves the file and no temporary
$T "$A" export --config $C --only counter --output "$tmp/adir/t.json" 2>/dev/null
check_eval "item6 export --output renamed into place" '[ -s "$tmp/adir/t.json" ] && [ "$(ls -A "$tmp/adir")" = t.json ]'

# ---- items 2 and 3: SIGINT and SIGTERM during sweep -j 2 -----------------------
# The workers of pid $1 that are still alive (a zombie is dead: nothing in
# this container may reap an orphan).
alive_workers() {
    local k n=0
    for k in $1; do
        s=$(ps -o stat= -p "$k" 2>/dev/null) || continue
        case $s in Z*) ;; *) n=$((n + 1)) ;; esac
    done
    echo $n
}
# start CMD...: runs it in the background with SIGINT at its default (a
# script's background jobs ignore it otherwise), a watchdog behind it.
start() {
    (
        trap - INT
        exec "$@"
    ) &
    pid=$!
    # the watchdog keeps no pipe of the caller's open
    (
        exec >/dev/null 2>&1
        sleep 60 &
        wait $!
        kill -9 $pid
    ) &
    dog=$!
}
stop_dog() {
    kill $(pgrep -P $dog) $dog 2>/dev/null
    wait $dog 2>/dev/null
}
# wait_workers PID: the workers it has forked (up to 5 s for them to start)
wait_workers() {
    local i kids=
    for i in $(seq 50); do
        kids=$(pgrep -P "$1" | tr '\n' ' ')
        [ -n "$kids" ] && [ "$(wc -w <<<"$kids")" -ge 2 ] && break
        sleep 0.1
    done
    echo "$kids"
}
# gone KIDS: every worker gone within 3 s
gone() {
    local i
    for i in $(seq 30); do
        [ "$(alive_workers "$1")" = 0 ] && return 0
        sleep 0.1
    done
    return 1
}
# rows_whole FILE: ends with a newline and every line has the header's fields
rows_whole() {
    [ -s "$1" ] && [ "$(tail -c 1 "$1" | od -An -c | tr -d ' ')" = '\n' ] &&
        awk -F, 'NR == 1 { n = NF } NF != n { exit 1 }' "$1"
}
# Many short rows (a few ms each): the sweep is mid-run when the signal comes.
SW=(sweep --pattern histogram --n 2^16 --bins 1..60000 -j 2 --no-progress)
for sig in INT TERM; do
    want=$((128 + $([ $sig = INT ] && echo 2 || echo 15)))
    start "$A" "${SW[@]}" >"$tmp/rows.csv" 2>"$tmp/err"
    kids=$(wait_workers $pid)
    sleep 0.5
    kill -$sig $pid
    got=0
    wait $pid || got=$?
    stop_dog
    check_eval "item2 SIG$sig: sweep exits $want" '[ $got = $want ]'
    check_eval "item2 SIG$sig: one line on stderr" \
        '[ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^atomsim sweep: interrupted by SIG$sig$" "$tmp/err"'
    check_eval "item2 SIG$sig: no partial last row" 'rows_whole "$tmp/rows.csv"'
    check_eval "item3 SIG$sig: no worker left" 'gone "$kids"'
done

# the parent killed outright: its workers die with it (PR_SET_PDEATHSIG),
# not after their row; rows long enough (seconds) that they would outlive it
start "$A" sweep --pattern counter --n 2^28 --seed 1..4 -p sim.max_events=1e12 -j 2 --no-progress >/dev/null 2>&1
kids=$(wait_workers $pid)
{
    kill -9 $pid
    wait $pid
} 2>/dev/null
stop_dog
check_eval "item3 SIGKILL to the parent: its workers die with it" '[ -n "$kids" ] && gone "$kids"'
for k in $kids; do kill -9 "$k" 2>/dev/null; done

# SIGTERM to the parent alone, mid-row: it ends its workers itself
start "$A" sweep --pattern counter --n 2^28 --seed 1..4 -p sim.max_events=1e12 -j 2 --no-progress >/dev/null 2>"$tmp/err"
kids=$(wait_workers $pid)
kill -TERM $pid
got=0
wait $pid || got=$?
stop_dog
check_eval "item3 SIGTERM to the parent mid-row: exits 143, no worker left" '[ $got = 143 ] && gone "$kids"'
for k in $kids; do kill -9 "$k" 2>/dev/null; done

# a worker killed by a signal: the sweep fails, naming the row
start "$A" sweep --pattern counter --n 2^28 --seed 1..4 -p sim.max_events=1e12 -j 2 --no-progress >/dev/null 2>"$tmp/err"
kids=$(wait_workers $pid)
kill -9 ${kids%% *}
got=0
wait $pid || got=$?
stop_dog
check_eval "item7 worker killed: exit 1, one line naming the row" \
    '[ $got = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -Eq "^atomsim sweep: a worker died \(signal 9\) while running counter n=268435456 " "$tmp/err"'
check_eval "item7 worker killed: no worker left" 'gone "$kids"'

# ---- item 2 and 6: an interrupted study replaces none of its files -------------
mkdir -p "$tmp/st"
cat >"$tmp/s.ini" <<EOF
[study]
version = 1
[grid]
pattern = histogram
n = 65536
bins = 1..60000
engine = sim
[outputs]
csv = a.csv
json = a.json
EOF
echo old >"$tmp/st/a.csv"
start "$A" study "$tmp/s.ini" --out-dir "$tmp/st" -j 2 --no-progress 2>"$tmp/err"
kids=$(wait_workers $pid)
sleep 0.5
kill -INT $pid
got=0
wait $pid || got=$?
stop_dog
check_eval "item2 study SIGINT: exit 130, one line" \
    '[ $got = 130 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^atomsim study: interrupted by SIGINT$" "$tmp/err"'
check_eval "item6 study SIGINT: the old file stays, no temporary left" \
    '[ "$(cat "$tmp/st/a.csv")" = old ] && [ "$(ls -A "$tmp/st")" = a.csv ]'
check_eval "item3 study SIGINT: no worker left" 'gone "$kids"'

# ---- items 2, 3 and 6: the pool's other users (export --engine sim) ------------
mkdir -p "$tmp/ex" && echo old >"$tmp/ex/t.json"
start "$A" export --engine sim --config $C -j 2 --no-progress --output "$tmp/ex/t.json" 2>"$tmp/err"
kids=$(wait_workers $pid)
sleep 0.3
kill -INT $pid
got=0
wait $pid || got=$?
stop_dog
check_eval "item2 export --engine sim SIGINT: exit 130, one line" \
    '[ $got = 130 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^atomsim export: interrupted by SIGINT$" "$tmp/err"'
check_eval "item6 export --engine sim SIGINT: --output not replaced, no temporary left" \
    '[ "$(cat "$tmp/ex/t.json")" = old ] && [ "$(ls -A "$tmp/ex")" = t.json ]'
check_eval "item3 export --engine sim SIGINT: no worker left" 'gone "$kids"'

# ---- item 5: two outputs of one study on one file ------------------------------
for same in "a.x a.x a.x" "a.x ./a.x b.x" "a.x b.x sub/../a.x"; do
    read -r o1 o2 o3 <<<"$same"
    printf '[study]\nversion = 1\n[grid]\npattern = counter\nn = 1000\nengine = model\n[outputs]\ncsv = %s\njson = %s\ntext = %s\n' \
        "$o1" "$o2" "$o3" >"$tmp/same.ini"
    rm -rf "$tmp/same"
    expect "item5 study outputs $same" 2 "name the same file|a plain relative name" file -- \
        $T "$A" study "$tmp/same.ini" --out-dir "$tmp/same"
    check_eval "item5 study outputs $same: nothing written" '[ -z "$(ls -A "$tmp/same" 2>/dev/null)" ]'
done
# one existing file under two names (a link)
printf '[study]\nversion = 1\n[grid]\npattern = counter\nn = 1000\nengine = model\n[outputs]\ncsv = a.csv\njson = b.json\n' >"$tmp/link.ini"
mkdir -p "$tmp/ln" && echo old >"$tmp/ln/a.csv" && ln -s a.csv "$tmp/ln/b.json"
expect "item5 study outputs on one file through a link" 2 "outputs csv and json name the same file" file -- \
    $T "$A" study "$tmp/link.ini" --out-dir "$tmp/ln"

# ---- readers: non-regular and unreadable files ---------------------------------
# Every reader of a file refuses what is not a regular file (these hung on
# /dev/zero or read a directory as empty before).
readers=(
    "validate --config $C --data @"
    "validate --config $C --data $H --split @ --rows fit"
    "check --data @"
    "check --config $C --cpu @"
    "check --routing --table tables/h100.json --gpu-data @ --cpu-data validate/truth/routing-7-cpu-h100host-16core.csv"
    "dispatch --table @ --pattern counter"
    "dispatch --table tables/h100.json --batch @"
    "config --config @ --dump"
    "run --config @ --pattern counter"
    "sweep --config $C --pattern counter --points @"
    "export --config $C --cpu @"
    "export --config $C --merge @"
    "study @"
)
for r in "${readers[@]}"; do
    for f in /dev/zero "$tmp/adir"; do
        # shellcheck disable=SC2086
        expect "readers ${r//@/$f}" 2 "not a regular file" file -- $T "$A" ${r//@/$f}
    done
done
# An unreadable file: chmod 000 stops no root, so as root the readers run
# as nobody (setpriv, util-linux) on a file in a folder nobody may enter.
as_user=()
A_ABS=$(cd "$(dirname "$A")" && pwd)/$(basename "$A")
if [ "$(id -u)" = 0 ]; then
    nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    # nobody must reach the binary and the tree (a clone under /root may not)
    if command -v setpriv >/dev/null && "${nobody[@]}" "$A_ABS" --help >/dev/null 2>&1 &&
       "${nobody[@]}" test -r "$C" -a -r tables/h100.json; then
        as_user=("${nobody[@]}")
    else
        as_user=(skip)
    fi
fi
if [ "${as_user[0]:-}" = skip ]; then
    echo "skip readers on an unreadable file: root, and nobody cannot run $A_ABS here (or no setpriv)"
else
    ud=$(mktemp -d /tmp/faults-unreadable.XXXXXX)
    chmod 755 "$ud"
    cp $H "$ud/unreadable.csv" && chmod 000 "$ud/unreadable.csv"
    for r in "${readers[@]}"; do
        case $r in *"--split @"*|*"--batch @"*|*"--merge @"*|*"--points @"*|*"--gpu-data @"*|"study @") continue ;; esac
        # shellcheck disable=SC2086
        expect "readers on an unreadable file: ${r//@/unreadable}" 2 "Permission denied" file -- \
            $T "${as_user[@]}" "$A_ABS" ${r//@/$ud/unreadable.csv}
    done
    rm -rf "$ud"
fi

finish faults
