# checks.sh - the pass/fail bookkeeping every end-to-end script shares
# (sourced, not run: tests/run_all.sh only runs tests/*.sh).
#   ok NAME / bad NAME       count and print one result
#   check NAME COMMAND...    passes when the command succeeds
#   check_eval NAME EXPR     passes when `eval EXPR` succeeds
#   check_refuses NAME COMMAND...  passes when the command refuses cleanly:
#                            a non-zero exit, one line on stderr, nothing on stdout
#   finish [LABEL]           prints "N passed, M failed"; status 0 iff none failed
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
check() {
    local name=$1
    shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}
check_eval() { if eval "$2"; then ok "$1"; else bad "$1"; fi; }
check_refuses() {
    local name=$1 rc=0 out err
    shift
    out=$(mktemp) err=$(mktemp)
    "$@" >"$out" 2>"$err" || rc=$?
    check "$name: non-zero exit, one line, nothing on stdout" \
        test "$rc" -ne 0 -a "$(wc -l <"$err")" -eq 1 -a ! -s "$out"
    rm -f "$out" "$err"
}
finish() {
    echo "${1:+$1: }$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
}
