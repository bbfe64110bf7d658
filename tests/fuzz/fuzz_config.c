/* fuzz_config.c - an INI config as `--config FILE` reads it: cfg_load over
 * the defaults (model/config.c), then the cross-field checks, and on a
 * config both accept the model's answer for the default pattern, as
 * `atomsim run --engine model` gives it. */
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
    char err[CFG_ERR_MAX], buf[128];
    const char *path = fz_file(data, size, ".ini");
    cfg_defaults(&cfg);
    if (cfg_load(&cfg, path, err) || cfg_validate(&cfg, err))
        return 0;
    size_t n;
    const cfg_option *o = cfg_options(&n);
    for (size_t i = 0; i < n; i++)
        cfg_format(&cfg, &o[i], buf, sizeof buf);
    (void)cfg_hash(&cfg);
    pat_params p;
    pat_defaults(&p);
    atom_stats st;
    (void)mdl_predict(&cfg, &p, &st, err);
    return 0;
}
