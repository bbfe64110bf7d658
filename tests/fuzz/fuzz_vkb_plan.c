/* fuzz_vkb_plan.c - a measurement plan as `vkbench --plan FILE` reads it
 * (validate/vkbench/vkb_plan.c: vkb_plan_read, with vkbench's default
 * repetitions); the reader and its grid expansion need no Vulkan. */
#include "../../validate/vkbench/vkb_plan.h"
#include "../../validate/vkbench/vkb_common.h"
#include "fz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    fz_quiet();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[VKB_ERRLEN];
    vkb_cfg_list list = { 0 };
    const char *path = fz_file(data, size, ".plan");
    (void)vkb_plan_read(path, 9, 2, &list, err);
    vkb_cfg_list_free(&list);
    return 0;
}
