#!/usr/bin/env bash
# run_device_retry.sh - validate/run_device.sh measures again, in the same
# call, the rows vkbench skipped at its first bound on a dispatch's time,
# so a truth set keeps every row: with the first bound at 0.0001 ms every
# row of a two-row plan is skipped, then measured at the retry bound and
# appended, and the dataset's provenance names their plan lines; with the
# retry off (RUN_DEVICE_RETRY_MS=0) the dataset says they were not
# measured.  Runs vkbench on lavapipe (Mesa's CPU Vulkan driver); its
# timings mean nothing and are never kept (run_device.sh runs build/vkbench).
set -u
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh

if [ ! -x build/vkbench ]; then
    echo "FAIL build/vkbench is not built (make build/vkbench)"
    exit 1
fi
icd=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json 2>/dev/null | head -1 || true)
if [ -z "$icd" ]; then
    echo "FAIL lavapipe not found under /usr/share/vulkan/icd.d (mesa-vulkan-drivers)"
    exit 1
fi
export VK_DRIVER_FILES=$icd
printf '%s\n' '# two rows' '--pattern counter --n 4096' '--pattern histogram --n 4096 --bins 64' >"$tmp/p.plan"
flags=(-- --reps 1 --warmup 0 --clock-guard off)

RUN_DEVICE_MAX_DISPATCH_MS=0.0001 RUN_DEVICE_RETRY_MS=60000 \
    bash validate/run_device.sh "$tmp/p.plan" "$tmp/a" test "${flags[@]}" >"$tmp/a.out" 2>&1
rc=$?
check_eval "retry: exit 0" "[ $rc -eq 0 ] || { cat $tmp/a.out; false; }"
check_eval "retry: the first run skipped both rows" "[ \$(grep -c ': skipped ' $tmp/a/test.log) -eq 2 ]"
check_eval "retry: both rows measured again and in the dataset, checked" \
    "[ \$(grep -v '^#' $tmp/a/test.csv | tail -n +2 | grep -c ',ok') -eq 2 ]"
check_eval "retry: the provenance names the plan lines and the bound" \
    "grep -q '^# + 2 of the 2 rows that vkbench skipped at --max-dispatch-ms 0.0001 (plan lines 2,3), measured again in the same call at --max-dispatch-ms 60000' $tmp/a/test.csv"
check_eval "retry: one header, before the rows" "[ \$(grep -c '^pattern,' $tmp/a/test.csv) -eq 1 ]"
check_eval "retry: its plan and log kept" "[ -s $tmp/a/test.skipped.plan ] && [ -s $tmp/a/test.skipped.log ]"

RUN_DEVICE_MAX_DISPATCH_MS=0.0001 RUN_DEVICE_RETRY_MS=0 \
    bash validate/run_device.sh "$tmp/p.plan" "$tmp/b" test "${flags[@]}" >"$tmp/b.out" 2>&1
check_eval "no retry: no row, and the dataset says which were skipped" \
    "[ \$(grep -v '^#' $tmp/b/test.csv | tail -n +2 | grep -c .) -eq 0 ] && grep -q '^# vkbench skipped plan lines 2,3 at --max-dispatch-ms 0.0001: not measured' $tmp/b/test.csv"
finish run_device_retry
