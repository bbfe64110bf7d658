/* fuzz_override.c - `-p section.key=value` overrides (model/config.c:
 * cfg_override), as cli_load_config applies them one after another over
 * the defaults.  The input is the list of assignments, NUL-separated (an
 * argument cannot hold a NUL), at most 16; then the cross-field checks and
 * the model's answer for the default pattern on a config they accept. */
#include "../../model/config.h"
#include "../../model/model.h"
#include "fz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cfg_config cfg;
    char err[CFG_ERR_MAX];
    char *text = fz_string(data, size), *end = text + size;
    cfg_defaults(&cfg);
    int bad = 0, count = 0;
    for (char *a = text; a <= end && count < 16 && !bad; a += strlen(a) + 1, count++)
        bad = cfg_override(&cfg, a, err) != 0;
    if (!bad && !cfg_validate(&cfg, err)) {
        pat_params p;
        pat_defaults(&p);
        atom_stats st;
        (void)mdl_predict(&cfg, &p, &st, err);
    }
    free(text);
    return 0;
}
