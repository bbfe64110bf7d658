#!/usr/bin/env bash
# names_escaped.sh - a gpu.name holding quotes, a comment end, a slash-star,
# backslashes and ?? (x"y*/z\\w/*??/) used to give a C header that did not
# compile (the name went raw into a comment); every writer now quotes it
# for its format: export's JSON reads back with the same name, its C header
# compiles and its name macro is the same bytes, its CSV's sidecar (FILE.meta.json) reads
# back the name, and run, config --dump and dispatch write JSON
# that parses.  A table file is anyone's: dispatch --format json escapes a
# name with a line break read from one.  A control character in a config
# string is refused (an INI dump could not carry it back).  ATOMSIM may
# name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. tests/lib/checks.sh
. tests/lib/expect_one_line.sh
N='x"y*/z\\w/*??/,'
P=(--config configs/h100.ini -p "gpu.name=$N")
printf '%s' "$N" >"$tmp/name"

"$A" export "${P[@]}" --only counter --output "$tmp/t.json" 2>"$tmp/err"
check_eval "export JSON: the name reads back" \
    "python3 -c 'import json,sys; sys.exit(json.load(open(\"$tmp/t.json\"))[\"gpu\"][\"name\"] != open(\"$tmp/name\").read())'"
"$A" export "${P[@]}" --only counter --format c-header --output "$tmp/t.h" 2>"$tmp/err"
check_eval "C header: compiles (cc -fsyntax-only -Wall)" "cc -std=c11 -Wall -Werror -fsyntax-only -Iinclude -x c $tmp/t.h"
printf '#include "%s"\n#include <stdio.h>\nint main(void) { fputs(ATOMSIM_COST_TABLE_GPU_NAME, stdout); return 0; }\n' \
    "$tmp/t.h" >"$tmp/m.c"
check_eval "C header: its name macro is the name" \
    "cc -std=c11 -Iinclude $tmp/m.c -o $tmp/m -lm && $tmp/m >$tmp/got && cmp -s $tmp/got $tmp/name"
"$A" export "${P[@]}" --only counter --format csv --output "$tmp/t.csv" 2>"$tmp/err"
check_eval "CSV: its sidecar (t.csv.meta.json) reads back the name" \
    "python3 -c 'import json,sys; sys.exit(json.load(open(\"$tmp/t.csv.meta.json\"))[\"gpu\"] != open(\"$tmp/name\").read())'"
"$A" run "${P[@]}" --pattern counter --n 1024 --format json >"$tmp/r.json" 2>"$tmp/err"
check_eval "run --format json parses" "python3 -c 'import json; json.load(open(\"$tmp/r.json\"))'"
"$A" config "${P[@]}" --dump --format json >"$tmp/c.json" 2>"$tmp/err"
check_eval "config --dump --format json parses" "python3 -c 'import json; json.load(open(\"$tmp/c.json\"))'"
"$A" dispatch --table "$tmp/t.json" --pattern counter --format json >"$tmp/d.json" 2>"$tmp/err"
check_eval "dispatch --format json parses, with the name" \
    "python3 -c 'import json,sys; sys.exit(json.load(open(\"$tmp/d.json\"))[\"gpu\"] != open(\"$tmp/name\").read())'"
python3 -c "
import json
d = json.load(open('$tmp/t.json'))
d['gpu']['name'] = 'a\nb\"c\x01'
d['cpu']['name'] = 'tab\there'
json.dump(d, open('$tmp/nl.json', 'w'))"
"$A" dispatch --table "$tmp/nl.json" --pattern counter --format json >"$tmp/d2.json" 2>"$tmp/err"
check_eval "dispatch --format json: a table's name with a line break stays one JSON string" \
    "python3 -c 'import json,sys; d=json.load(open(\"$tmp/d2.json\")); sys.exit(d[\"gpu\"] != \"a\nb\\\"c\x01\" or d[\"cpu\"] != \"tab\there\")'"
expect "a line break in gpu.name is refused" 2 "gpu.name: a control character \(byte 10\)" \
    "$A" run --config configs/h100.ini -p "gpu.name=$(printf 'a\nb')" --pattern counter
finish names_escaped
