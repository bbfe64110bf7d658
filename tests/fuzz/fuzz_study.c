/* fuzz_study.c - a study file as `atomsim study FILE` reads it (app/study.c:
 * study_load into a fresh spec).  The plan is not opened: that loads the
 * configs it names and expands the grid, which is the sweep's work, not
 * the reader's. */
#include "../../app/study.h"
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
    study_file sf;
    const char *path = fz_file(data, size, ".ini");
    if (swp_spec_new(&s))
        abort();
    (void)study_load(path, s, &sf, err);
    swp_spec_free(s);
    return 0;
}
