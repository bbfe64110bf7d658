/* fuzz_sweep_values.c - a sweep axis, `--vary KEY=LIST` or a flag's list
 * such as `--n '1..2:+1'` (app/sweep_values.c: swp_expand, through
 * swp_set_axis, which also checks each value as `run` would).  The input
 * is KEY=LIST; without an '=', the list of n. */
#include "../../app/sweep_int.h"
#include "fz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CFG_ERR_MAX];
    swp_spec *s;
    char *text = fz_string(data, size), *eq = strchr(text, '=');
    const char *key = "n", *values = text;
    if (eq) {
        *eq = '\0';
        key = text;
        values = eq + 1;
    }
    if (swp_spec_new(&s))
        abort();
    (void)swp_set_axis(s, -1, key, values, err);
    swp_spec_free(s);
    free(text);
    return 0;
}
