/* fuzz_points.c - a sweep points CSV as `sweep --points FILE` reads it
 * (app/sweep_points.c: swp_set_points), into a fresh spec. */
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
    const char *path = fz_file(data, size, ".csv");
    if (swp_spec_new(&s))
        abort();
    (void)swp_set_points(s, -1, path, err);
    swp_spec_free(s);
    return 0;
}
