#!/usr/bin/env bash
# data_manifest.sh - validate/data/MANIFEST.csv (docs/data.md, "Layout and
# manifest") says what every measured file is: each file under
# validate/data has one row and each row a file; its role is one of the
# closed set and matches its folder; its plan exists; its row count is the
# file's (zcat for .gz); its validate_reads is what `atomsim validate
# --config configs/h100.ini --engine model` does with it (yes: accepted, no:
# refused); its harness_commit is the file's own provenance line. File names
# are unique across the folders, so a bare name in prose finds one file. And
# no text file in the repository (outside .git and the build directories) names a path under
# validate/data that does not exist: placeholders (GPU.csv, <gpu>.csv,
# %.csv) are skipped, a glob must match a file, and a top-level NAME.csv
# beside configs/NAME.ini is the contract dataset that GPU has still to
# measure. ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
D=validate/data
M=$D/MANIFEST.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
if [ ! -f "$M" ]; then
    echo "FAIL $M is missing"
    exit 1
fi

check "MANIFEST.csv has its header" \
    test "$(head -1 "$M")" = "file,role,plan,gpu,board,harness_commit,rows,validate_reads"

# --- every file has one row, every row a file -------------------------------------
(cd $D && find . -type f ! -path ./MANIFEST.csv | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/files"
tail -n +2 "$M" | cut -d, -f1 | LC_ALL=C sort >"$tmp/listed"
missing=$(LC_ALL=C comm -23 "$tmp/files" "$tmp/listed" | tr '\n' ' ')
absent=$(LC_ALL=C comm -13 "$tmp/files" "$tmp/listed" | tr '\n' ' ')
dup=$(uniq -d "$tmp/listed" | tr '\n' ' ')
check "every file under $D is in MANIFEST.csv (missing: ${missing:-none})" test -z "$missing"
check "every file MANIFEST.csv lists exists (absent: ${absent:-none})" test -z "$absent"
check "no file is listed twice (${dup:-none})" test -z "$dup"
names=$(sed 's|.*/||' "$tmp/files" | sort | uniq -d | tr '\n' ' ')
check "file names are unique across the folders (${names:-none} twice)" test -z "$names"

# --- each row's fields ---------------------------------------------------------------
rows_of() {
    local n
    case $1 in
        *.gz) n=$(zcat "$1" | grep -cv '^#\|^$') ;;
        *) n=$(grep -cv '^#\|^$' "$1") ;;
    esac
    # a CSV's first line that is no comment is its header
    case $1 in *.csv | *.csv.gz) [ "$n" -gt 0 ] && n=$((n - 1)) ;; esac
    echo "$n"
}
header_commit() {
    case $1 in
        *.gz) zcat "$1" ;;
        *) cat "$1" ;;
    esac | awk '!/^#/ { exit } sub(/^# harness_commit: /, "") { print; exit }'
}
: >"$tmp/bad_fields"
: >"$tmp/bad_rows"
: >"$tmp/bad_reads"
: >"$tmp/bad_commit"
t0=$(date +%s.%N)
while IFS=, read -r file role plan gpu board commit rows reads extra; do
    f=$D/$file
    [ -f "$f" ] || continue
    case $file in
        */*) folder=${file%%/*} ;;
        *) folder=. ;;
    esac
    case $role:$folder in
        contract:. | probe:probes | repeat:repeats | prediction:predictions | trace:traces | cpu:cpu | raw:raw) ;;
        *) echo "$file: role '$role' in folder '$folder'" >>"$tmp/bad_fields" ;;
    esac
    case $gpu in H100 | H200 | none) ;; *) echo "$file: gpu '$gpu'" >>"$tmp/bad_fields" ;; esac
    if [ -n "$plan" ] && { [ "${plan#validate/plans/}" = "$plan" ] || [ ! -f "$plan" ]; }; then
        echo "$file: plan '$plan'" >>"$tmp/bad_fields"
    fi
    [ -z "$extra" ] || echo "$file: more than 8 fields" >>"$tmp/bad_fields"
    n=$(rows_of "$f")
    [ "$n" = "$rows" ] || echo "$file: $rows rows listed, $n in the file" >>"$tmp/bad_rows"
    own=$(header_commit "$f")
    [ -z "$own" ] || [ "$own" = "$commit" ] || echo "$file: harness_commit '$commit', the file says '$own'" >>"$tmp/bad_commit"
    if "$A" validate --data "$f" --config configs/h100.ini --engine model >/dev/null 2>&1; then got=yes; else got=no; fi
    [ "$got" = "$reads" ] || echo "$file: validate_reads '$reads', atomsim validate says $got" >>"$tmp/bad_reads"
done < <(tail -n +2 "$M")
t1=$(date +%s.%N)
check "roles, folders, GPUs and plans are valid ($(head -3 "$tmp/bad_fields" | tr '\n' ' '))" test ! -s "$tmp/bad_fields"
check "row counts agree with the files ($(head -3 "$tmp/bad_rows" | tr '\n' ' '))" test ! -s "$tmp/bad_rows"
check "harness_commit is each file's own provenance line ($(head -3 "$tmp/bad_commit" | tr '\n' ' '))" test ! -s "$tmp/bad_commit"
check "validate_reads is what atomsim validate does ($(head -3 "$tmp/bad_reads" | tr '\n' ' '))" test ! -s "$tmp/bad_reads"
check "$(grep -c ',yes$' "$M") files validate reads, none of them a trace or prediction" \
    test -z "$(grep ',\(trace\|prediction\),.*,yes$' "$M")"
echo "     (read $(($(wc -l <"$M") - 1)) files in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s)"

# --- every validate/data path named in the repository exists -------------------------------
grep -rIoE --exclude-dir=.git --exclude-dir=build --exclude-dir=build-asan --exclude-dir=build-fuzz 'validate/data/[A-Za-z0-9_./*<>%$-]*' . |
    sed 's/[.]*$//' | sort -u >"$tmp/named"
: >"$tmp/dangling"
while IFS= read -r hit; do
    where=${hit%%:*}
    p=${hit#*:}
    rest=${p#validate/data/}
    case $rest in
        *'<'* | *'%'* | *'$'*) continue ;; # a placeholder or a format
    esac
    if [[ $rest =~ ^[A-Z]+\.csv$ ]]; then continue; fi # GPU.csv, NAME.csv
    if [[ $rest == *'*'* ]]; then
        compgen -G "$p" >/dev/null || echo "$where: $p" >>"$tmp/dangling"
        continue
    fi
    [ -e "$p" ] && continue
    if [[ $rest =~ ^([a-z0-9-]+)\.csv$ ]] && [ -f "configs/${BASH_REMATCH[1]}.ini" ]; then
        continue # a configured GPU's contract dataset, not measured yet
    fi
    echo "$where: $p" >>"$tmp/dangling"
done <"$tmp/named"
check "every validate/data path the repository names exists ($(head -5 "$tmp/dangling" | tr '\n' ' '))" \
    test ! -s "$tmp/dangling"

finish data_manifest
