/* fuzz_dataset.c - a measured dataset CSV as `validate --data FILE` reads
 * it (validate/dataset.c: val_dataset_load), then the model's prediction
 * for its first rows, as `validate --engine model` makes them. */
#include "../../model/model.h"
#include "../../validate/dataset.h"
#include "fz.h"

static cfg_config fz_cfg;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_quiet();
    cfg_defaults(&fz_cfg);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CFG_ERR_MAX];
    val_dataset d;
    const char *path = fz_file(data, size, ".csv");
    if (val_dataset_load(path, &d, err))
        return 0;
    for (size_t i = 0; i < d.count && i < 4; i++) {
        atom_stats st;
        (void)mdl_predict(&fz_cfg, &d.rows[i].params, &st, err);
    }
    val_dataset_free(&d);
    return 0;
}
