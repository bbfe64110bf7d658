#!/usr/bin/env bash
# bash_completion.sh - the completion `make completion` writes (atomsim
# help-man completion, app/man_completion.c) loads in bash, registers
# _atomsim for atomsim, and completes from the code's tables: commands,
# each command's own flags (the option parser's list, not the prose of its
# help), pattern names (in a comma list too), config keys after -p, a
# choice's values.  ATOMSIM may name the binary.
set -u
cd "$(dirname "$0")/.."
A=${ATOMSIM:-build/atomsim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(cd "$(dirname "$0")" && pwd)/lib/checks.sh"

if [ ! -x "$A" ]; then
    echo "FAIL $A is not built"
    exit 1
fi
rc=0
"$A" help-man completion >"$tmp/atomsim" 2>"$tmp/err" || rc=$?
check_eval "help-man completion: exit 0, nothing on stderr" "[ $rc -eq 0 ] && [ -s $tmp/atomsim ] && [ ! -s $tmp/err ]"
check "the script is valid bash" bash -n "$tmp/atomsim"

# complete WORDS...: what _atomsim offers for the last word, sorted, on one line
cat >"$tmp/run.sh" <<'EOF'
. "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
_atomsim
[ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
EOF
complete_words() { bash "$tmp/run.sh" "$tmp/atomsim" "$@"; }

check_eval "complete -p atomsim names _atomsim" \
    "bash -c '. $tmp/atomsim; complete -p atomsim' | grep -qx 'complete -o default -F _atomsim atomsim'"
check_eval "atomsim ru<TAB>: run" "[ \"\$(complete_words atomsim ru)\" = 'run ' ]"
check_eval "atomsim <TAB>: every command of atomsim --help" \
    "[ \"\$(complete_words atomsim '' | tr ' ' '\n' | grep -v '^--' | grep . | sort)\" = \
       \"\$($A --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print \$1 }' | sort)\" ]"
check_eval "atomsim run --pat<TAB>: --pattern" "[ \"\$(complete_words atomsim run --pat)\" = '--pattern ' ]"
check_eval "atomsim run --pattern histogram-u<TAB>: the two sub-word CAS histograms" \
    "[ \"\$(complete_words atomsim run --pattern histogram-u)\" = 'histogram-u16-cas histogram-u8-cas ' ]"
check_eval "atomsim plan --patterns store,cou<TAB>: the list's last name" \
    "[ \"\$(complete_words atomsim plan --patterns store,cou)\" = 'store,counter store,counter-aggregated ' ]"
check_eval "atomsim run -p l2.slice_c<TAB>: l2.slice_count=" \
    "[ \"\$(complete_words atomsim run -p l2.slice_c)\" = 'l2.slice_count= ' ]"
nkeys=$("$A" config | awk 'NR > 1' | wc -l)
check_eval "atomsim run -p <TAB>: all $nkeys config keys" "[ \$(complete_words atomsim run -p '' | wc -w) -eq $nkeys ]"
check_eval "atomsim run --format <TAB>: text csv json" "[ \"\$(complete_words atomsim run --format '')\" = 'csv json text ' ]"
check_eval "atomsim export --format <TAB>: its own formats" \
    "[ \"\$(complete_words atomsim export --format '')\" = 'c-header csv json ' ]"
check_eval "atomsim validate --by <TAB>: pattern wg smem n" \
    "[ \"\$(complete_words atomsim validate --by '')\" = 'n pattern smem wg ' ]"
check_eval "atomsim run --config <TAB>: nothing of its own (bash completes file names)" \
    "[ -z \"\$(complete_words atomsim run --config '')\" ]"
check_eval "atomsim sweep --keep<TAB>: --keep-going" "[ \"\$(complete_words atomsim sweep --keep)\" = '--keep-going ' ]"
# plan's help names vkbench's --pattern and dispatch's --batch in its prose;
# neither is a plan flag
check_eval "atomsim plan --<TAB>: plan's flags, not the ones its help mentions in passing" \
    "complete_words atomsim plan -- | grep -q -- '--n-range' && ! complete_words atomsim plan -- | grep -qE -- '--(pattern|batch) '"
check_eval "atomsim check --<TAB>: its modes' flags too" \
    "complete_words atomsim check -- | grep -q -- '--gpu-data' && complete_words atomsim check -- | grep -q -- '--rows-out'"
finish bash_completion
