#!/usr/bin/env bash
# link_independence.sh - the project's one-way data flow, checked on the
# built objects: the simulator (sim/*.o, sim/patterns/*.o) references no
# symbol of the analytical model (mdl_*) and none of the validation code
# (val_*, vkb_*), so its numbers never come from the model's formulas; the
# model references nothing of the simulator.  The sources of sim/ include
# only the model's shared-type headers (a static inline formula in a header
# would leave no symbol for nm to see).  A positive control shows nm does
# see mdl_ references where they belong (the application, app/, which dispatches
# --engine model).  ATOMSIM names the binary; its objects are beside it.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
OBJ=$(dirname "$A")/obj
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

shopt -s nullglob
sim_objs=("$OBJ"/sim/*.o "$OBJ"/sim/patterns/*.o)
model_objs=("$OBJ"/model/*.o)
cli_objs=("$OBJ"/app/*.o)
if ! command -v nm >/dev/null; then
    echo "FAIL nm not found (binutils)"
    exit 1
fi
if [ ${#sim_objs[@]} -lt 10 ] || [ ${#model_objs[@]} -lt 1 ] || [ ${#cli_objs[@]} -lt 1 ]; then
    echo "FAIL objects missing under $OBJ (build first: make $A)"
    exit 1
fi
echo "     ${#sim_objs[@]} simulator objects, ${#model_objs[@]} model objects under $OBJ"

# undefined symbols of a set of objects, "object: symbol" per line
undefined() { for o in "$@"; do nm -u "$o" | awk -v o="${o#"$OBJ"/}" '{print o ": " $NF}'; done; }

# positive control: the CLI calls the model, and nm shows it
if undefined "${cli_objs[@]}" | grep -q ': mdl_'; then
    ok "control: nm sees the CLI's references to mdl_*"
else
    bad "control: no mdl_ reference in the CLI objects, so this test could not see one either"
fi

hits=$(undefined "${sim_objs[@]}" | grep -E ': mdl_')
if [ -z "$hits" ]; then ok "simulator objects reference no mdl_* symbol"; else bad "simulator calls the model:"; echo "$hits" | sed 's/^/       /'; fi

hits=$(undefined "${sim_objs[@]}" | grep -E ': (val|vkb)_')
if [ -z "$hits" ]; then ok "simulator objects reference no validate/ symbol"; else bad "simulator calls validate/:"; echo "$hits" | sed 's/^/       /'; fi

# the model references no symbol that the simulator, validate/ or the
# application defines, whatever its prefix (the set is read from nm, not
# from a list of prefixes that a new module would escape)
defined() { for o in "$@"; do nm -g --defined-only "$o" | awk '{print $NF}'; done; }
validate_objs=("$OBJ"/validate/*.o)
above=$(defined "${sim_objs[@]}" "${validate_objs[@]}" "${cli_objs[@]}" | sort -u)
hits=$(undefined "${model_objs[@]}" | awk 'NR == FNR { above[$1] = 1; next } ($2 in above)' <(echo "$above") -)
if [ ${#validate_objs[@]} -gt 0 ] && [ -n "$above" ] && [ -z "$hits" ]; then
    ok "model objects reference no symbol of the simulator, validate/ or app/ ($(echo "$above" | wc -l) symbols)"
else
    bad "model calls outside itself:"; echo "${hits:-no validate/ objects or no symbols read}" | sed 's/^/       /'
fi

# source level: sim/ includes from model/ only config.h, params.h, stats.h
hits=$(grep -nE '#include[[:space:]]*"[^"]*model/' sim/*.c sim/*.h sim/patterns/*.c sim/patterns/*.h |
    grep -vE 'model/(config|params|stats)\.h"')
if [ -z "$hits" ]; then ok "sim/ sources include only the model's shared-type headers"; else bad "sim/ includes model code:"; echo "$hits" | sed 's/^/       /'; fi

# and nothing from the layers above it: validate/ and the application (app/)
hits=$(grep -nE '#include[[:space:]]*"[^"]*(validate|app)/' sim/*.c sim/*.h sim/patterns/*.c sim/patterns/*.h)
if [ -z "$hits" ]; then ok "sim/ sources include nothing from validate/ or app/"; else bad "sim/ includes a layer above it:"; echo "$hits" | sed 's/^/       /'; fi

# the simulator reads the shared-memory capacity only through cfg_wg_per_sm,
# which export --reuse relies on (app/export_part.c's occupancy_only_keys)
# export --reuse carries every cell across a change of the [model] keys
# (app/export_part.c's model_only): the simulator must never read them
hits=$(grep -nE '(->|\.)model\.' sim/*.c sim/*.h sim/patterns/*.c sim/patterns/*.h)
if [ -z "$hits" ]; then ok "sim/ reads no key of the config's [model] section"; else bad "sim/ reads a [model] key:"; echo "$hits" | sed 's/^/       /'; fi
hits=$(grep -nE 'smem_per_sm_bytes|smem_reserved_per_wg_bytes' sim/*.c sim/*.h sim/patterns/*.c sim/patterns/*.h)
if [ -z "$hits" ]; then ok "sim/ reads the shared-memory capacity only through cfg_wg_per_sm"; else bad "sim/ reads an occupancy-only key directly:"; echo "$hits" | sed 's/^/       /'; fi

# export --reuse re-simulates only the patterns with shared memory of their
# own when an [smem] key differs (app/export_part.c's shared_only): the
# engine reads the [smem] keys only in its shared-op path, and only those
# patterns issue shared ops
hits=$(grep -nE 'cfg\.smem\.|c->smem\.|->smem\.' sim/*.c sim/patterns/*.c | grep -v '^sim/smem.c:' || true)
if [ -z "$hits" ]; then ok "only sim/smem.c reads the [smem] keys"; else bad "a file of sim/ besides smem.c reads an [smem] key:"; echo "$hits" | sed 's/^/       /'; fi
issuers=$(grep -lE 'SIM_OP_S(ATOMIC|LOAD|STORE)' sim/patterns/*.c | xargs -n1 basename | sort | tr '\n' ' ')
if [ "$issuers" = "histogram_shared.c reduce.c " ]; then ok "only histogram-shared and reduce issue shared-memory ops"; else bad "shared-memory ops are issued by: $issuers(export_part.c's shared_only and pat_own_smem_bytes assume histogram_shared.c reduce.c)"; fi

# and re-simulates only pat_returns_old_value's patterns when a returning-only
# key differs (export_part.c's returning_only_keys): the engine reads them
# only for ops whose result is used, which only those patterns issue
hits=$(grep -nE 'lsu_return_cycles_per_request|reply_cycles_per_request' sim/*.c sim/patterns/*.c sim/patterns/*.h | grep -v '^sim/memsys.c:' || true)
if [ -z "$hits" ]; then ok "only sim/memsys.c reads the returning-only keys"; else bad "a file of sim/ besides memsys.c reads a returning-only key:"; echo "$hits" | sed 's/^/       /'; fi
returners=$(grep -lE 'pc_global\([^;]*, 1, [^;]*\);' sim/patterns/*.c sim/patterns/*.h | xargs -n1 basename | sort | tr '\n' ' ')
subword_users=$(grep -l '"subword.h"' sim/patterns/*.c | xargs -n1 basename | sort | tr '\n' ' ')
if [ "$returners" = "cas_append.c compaction.c subword.h " ] && [ "$subword_users" = "histogram_u16_cas.c histogram_u8_cas.c " ]; then
    ok "only cas-append, compaction and the sub-word CAS histograms use an atomic's old value"
else
    bad "atomics that return their old value are issued by: $returners(subword.h by $subword_users); pat_returns_old_value assumes cas_append.c compaction.c subword.h"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
