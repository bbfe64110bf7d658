/* fuzz_split.c - a split file as `validate --split FILE` and `calibrate
 * --split` read it (validate/split.c: val_split_load), then the rule match
 * on each pattern's default row. */
#include "../../validate/split.h"
#include "fz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static val_split s;
    char err[CFG_ERR_MAX];
    const char *path = fz_file(data, size, ".split");
    if (val_split_load(path, &s, err))
        return 0;
    pat_params p;
    pat_defaults(&p);
    for (int id = 0; id < PAT_COUNT; id++) {
        p.pattern = (enum pat_id)id;
        (void)val_split_is_test(&s, &p);
    }
    return 0;
}
