#!/usr/bin/env bash
# run_all.sh - runs every unit binary and end-to-end script, prints each
# failure with its log, and closes with "N passed, M failed".
set -u
pass=0; fail=0; failed=()
units=(); scripts=(); seen_sep=0
for a in "$@"; do
  if [ "$a" = "--" ]; then seen_sep=1; continue; fi
  if [ $seen_sep = 0 ]; then units+=("$a"); else scripts+=("$a"); fi
done
log=$(mktemp -d)
for t in "${units[@]}" "${scripts[@]}"; do
  name=$(basename "$t")
  start=$(date +%s)
  if [[ "$t" == *.sh ]]; then bash "$t" >"$log/$name.log" 2>&1; else "$t" >"$log/$name.log" 2>&1; fi
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ $rc = 0 ]; then pass=$((pass+1)); echo "ok   $name (${secs}s)";
  else
    fail=$((fail+1)); failed+=("$name"); echo "FAIL $name (exit $rc, ${secs}s)"
    # the failing checks (scripts print "FAIL ...", cmocka "ERROR: ..." and
    # "[  ERROR   ]"), then the log's last lines (the counts)
    grep -E -A2 '^(FAIL |ERROR: |\[  ERROR )' "$log/$name.log" | grep -v '^\[ RUN' | head -n 60 | sed 's/^/     /'
    tail -n 2 "$log/$name.log" | sed 's/^/     /'
  fi
done
echo
echo "tests: $pass passed, $fail failed${failed:+ (${failed[*]})}"
[ $fail = 0 ]
