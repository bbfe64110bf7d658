#!/usr/bin/env bash
# cli_errors.sh - every kind of bad usage or input to `atomsim` fails the
# way the CLI contract (docs/cli.md) says: exactly one line on stderr that names
# the culprit, nothing on stdout, exit status 2; a run that fails (event
# budget) exits 1 and names the budget.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
D=tests/data
tmp=$(mktemp -d)
trap 'chmod -R u+rwx "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
pass=0
fail=0

# expect NAME STATUS REGEX COMMAND...: the exit status, one stderr line
# matching REGEX (grep -E), empty stdout.
expect() {
    local name=$1 want=$2 re=$3 got=0
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || got=$?
    local lines
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -Eq -- "$re" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        pass=$((pass + 1))
        echo "ok   $name"
    else
        fail=$((fail + 1))
        echo "FAIL $name: exit $got (want $want), $lines stderr lines (want 1 matching /$re/), $(wc -c <"$tmp/out") bytes on stdout"
        sed 's/^/       stderr: /' "$tmp/err" | head -5
        if [ -s "$tmp/out" ]; then { head -c 300 "$tmp/out"; echo; } | head -3 | sed 's/^/       stdout: /'; fi
    fi
}

run() { "$A" run --pattern counter --n 1024 "$@"; }

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi

# --- names: pattern, subcommand, option, format, engine ----------------
expect "unknown pattern" 2 "nope" "$A" run --pattern nope --n 1024
expect "unknown subcommand" 2 "frobnicate" "$A" frobnicate
expect "unknown option" 2 "--bogus" run --bogus 1
expect "missing --pattern" 2 "--pattern" "$A" run --n 1024
expect "unknown --format" 2 "xml" run --format xml
expect "unknown --engine" 2 "gpu" run --engine gpu
expect "unexpected argument" 2 "stray" run stray
expect "L2 block not a power of two" 2 "partition_block_lines 3 is not a power of two" run -p l2.partition_block_lines=3
expect "L2 link queue out of range" 2 "partition_link_queue_requests: 0 is out of range" run -p l2.partition_link_queue_requests=0

# --- config files ---------------------------------------------------------
expect "unknown config key (file:line, key)" 2 "bad_unknown_key\.ini:3:.*sm_cuont" run --config $D/bad_unknown_key.ini
expect "unknown config section (file:line, section)" 2 "bad_unknown_section\.ini:4:.*gpux" run --config $D/bad_unknown_section.ini
expect "malformed config line (file:line)" 2 "bad_malformed\.ini:3:" run --config $D/bad_malformed.ini
expect "config value out of range (file:line, key)" 2 "bad_range\.ini:2:.*gpu\.sm_count" run --config $D/bad_range.ini
expect "config garbage number (file:line, value)" 2 "bad_number\.ini:3:.*12abc" run --config $D/bad_number.ini
expect "config cross-field check" 2 "max_wg_size" run --config $D/bad_cross_field.ini
expect "first of two config errors: its line, its text" 2 "bad_two_errors\.ini:3: .*malformed" run --config $D/bad_two_errors.ini
expect "an error before an include keeps its message" 2 "bad_error_then_include\.ini:4: .*sm_cuont" run --config $D/bad_error_then_include.ini
expect "missing config file (named)" 2 "$tmp/none\.ini" run --config "$tmp/none.ini"
# A directory opens for reading but is no config (and root can read any
# mode-000 file, so this is the unreadable case that holds for everyone).
expect "unreadable config: a directory" 2 "$tmp" run --config "$tmp"
if [ "$(id -u)" -ne 0 ]; then
    cp $D/tiny.ini "$tmp/noread.ini"
    chmod 000 "$tmp/noread.ini"
    expect "unreadable config: mode 000" 2 "noread\.ini" run --config "$tmp/noread.ini"
else
    echo "skip unreadable config: mode 000 (running as root, which reads it anyway)"
fi

# --- -p overrides -----------------------------------------------------------
expect "-p unknown key" 2 "gpu\.sm_cuont" run -p gpu.sm_cuont=4
expect "-p unknown section" 2 "gpux" run -p gpux.sm_count=4
expect "-p without =" 2 "gpu\.sm_count" run -p gpu.sm_count
expect "-p without section" 2 "sm_count" run -p sm_count=4
expect "-p sm_count=0 out of range" 2 "gpu\.sm_count.*range" run -p gpu.sm_count=0
expect "-p garbage number" 2 "12abc" run -p gpu.sm_count=12abc
expect "-p not an integer" 2 "4\.5" run -p gpu.sm_count=4.5
expect "-p bad boolean" 2 "maybe" run -p l2.hol_blocking=maybe
expect "-p bad enum" 2 "crc" run -p l2.slice_hash=crc
expect "-p cross-field check" 2 "subgroup_size" run -p gpu.subgroup_size=48
expect "-p cas_sources past the SMs" 2 "l2\.cas_sources 200 exceeds gpu\.sm_count" run -p l2.cas_sources=200
expect "-p bad cas_service" 2 "fifo" run -p l2.cas_service=fifo
expect "-p cas_classes out of range" 2 "l2\.cas_classes" run -p l2.cas_classes=0

# --- pattern flags out of range ----------------------------------------------
expect "--bins 0" 2 "--bins" run --bins 0
expect "--bins above the limit" 2 "--bins" run --bins 16777217
expect "--selectivity 1.5" 2 "--selectivity" run --selectivity 1.5
expect "--selectivity -0.1" 2 "--selectivity" run --selectivity -0.1
expect "--hot 2" 2 "--hot" run --hot 2
expect "--n 0" 2 "--n" "$A" run --pattern counter --n 0
expect "--n above 2^30" 2 "--n" "$A" run --pattern counter --n 1073741825
expect "--addresses 0" 2 "--addresses" run --addresses 0
expect "--wg 48 (not a multiple of 32)" 2 "48" run --wg 48
expect "--wg 2048 (above gpu.max_wg_size)" 2 "2048" run --wg 2048
expect "--wg 0" 2 "--wg" run --wg 0
expect "--smem-per-wg above the limit" 2 "max_smem_per_wg_bytes" run --smem-per-wg 49153
expect "histogram-shared bins above shared memory" 2 "max_smem_per_wg_bytes" \
    "$A" run --pattern histogram-shared --n 1024 --bins 20000

# --- garbage numbers in flags ---------------------------------------------------
expect "--n 12abc" 2 "12abc" "$A" run --pattern counter --n 12abc
expect "--wg 12abc" 2 "12abc" run --wg 12abc
expect "--bins 12abc" 2 "12abc" run --bins 12abc
expect "--selectivity 0.5x" 2 "0\.5x" run --selectivity 0.5x
expect "--seed 12abc" 2 "12abc" run --seed 12abc
expect "--smem-per-wg 12abc" 2 "12abc" run --smem-per-wg 12abc
expect "--n -5" 2 "--n" "$A" run --pattern counter --n -5

# --- config subcommand -------------------------------------------------------
expect "config --dump of a bad file" 2 "bad_range\.ini:2:" "$A" config --config $D/bad_range.ini --dump
expect "config bad -p" 2 "gpu\.nope" "$A" config -p gpu.nope=1 --dump
expect "config --format markdown with --dump" 2 "markdown is the option table's" "$A" config --dump --format markdown
expect "config --format of no kind" 2 "--format 'yaml'.*markdown" "$A" config --format yaml

# --- a run that fails: exit 1, the budget named -------------------------------
# the hardening audit's "integer flags accept octal and hex", and "' -1' as a
# seed becomes 2^64-1": base 10 only, no sign, no space (util/num.c)
expect "audit: --addresses 010 is not eight" 2 "--addresses '010' is not an integer" run --addresses 010
expect "audit: --bins 0100 is not 64" 2 "--bins '0100' is not an integer" run --bins 0100
expect "audit: --addresses 0x10 is not hex" 2 "--addresses '0x10' is not an integer" run --addresses 0x10
expect "audit: --seed ' -1' is not 2^64-1" 2 "--seed ' -1' is not an integer" run --seed ' -1'
expect "audit: --selectivity nan" 2 "--selectivity 'nan' is not a number" run --selectivity nan
expect "audit: -p with a hex value" 2 "l2.slice_count: '0x10' is not a number" run -p l2.slice_count=0x10
expect "event budget exceeded" 1 "sim\.max_events" run -p sim.max_events=10
expect "event budget exceeded (csv)" 1 "sim\.max_events" run -p sim.max_events=10 --format csv

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
