# expect_one_line.sh - one check of the CLI error contract, for the
# hardening tests (sourced after checks.sh, with $tmp set):
#   expect NAME STATUS REGEX COMMAND...
# passes when COMMAND exits STATUS with exactly one stderr line matching
# REGEX and nothing on stdout; a command still running after 20 s is
# killed and fails (a hang must fail the test, not stall the suite).
expect() {
    local name=$1 want=$2 re=$3 got=0 lines
    shift 3
    timeout -s KILL 20 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || got=$?
    lines=$(wc -l <"$tmp/err")
    if [ "$got" -eq "$want" ] && [ "$lines" -eq 1 ] && grep -Eq -- "$re" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        ok "$name"
    else
        bad "$name: exit $got (want $want), $lines stderr lines (want 1 matching /$re/), $(wc -c <"$tmp/out") bytes on stdout"
        sed 's/^/       stderr: /' "$tmp/err" | head -3
    fi
}
