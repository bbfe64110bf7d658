/* fuzz_cpb_plan.c - a measurement plan as `cpubench --plan FILE` reads it
 * (validate/cpubench/cpb_plan.c: cpb_plan_read, with cpubench's default
 * repetitions and shared-memory limit), and each configuration described. */
#include "../../validate/cpubench/cpb_plan.h"
#include "fz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CPB_ERRLEN], buf[256];
    cpb_cfg_list list = { 0 };
    const char *path = fz_file(data, size, ".plan");
    if (!cpb_plan_read(path, 9, 2, 49152, &list, err))
        for (size_t i = 0; i < list.len && i < 64; i++)
            cpb_cfg_describe(&list.v[i], buf, sizeof buf);
    cpb_cfg_list_free(&list);
    return 0;
}
