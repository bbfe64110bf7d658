/* Device-limit checks of vkb_limits.h. */
#include "vkb_limits.h"

#include "vkb_common.h"

int vkb_limits_admit(const vkb_gpu_info *in, const vkb_cfg *c, int out_mode,
                     char *err)
{
    const char *name = vkb_pattern_get(c->pattern)->name;
    uint64_t groups = ((uint64_t)c->n + c->wg - 1) / c->wg;
    uint64_t tbytes = 4 * vkb_pattern_target_words(c->pattern, c->n, c->bins,
                                                    c->addresses);
    uint64_t obytes = 4 * vkb_pattern_out_words(c->pattern, c->n, out_mode);
    uint32_t need = vkb_pattern_smem_need(c->pattern, c->bins);

    if (c->wg > in->max_invocations || c->wg > in->max_wg_size_x)
        return vkb_errf(err, VKB_EREFUSED, "%s: --wg %u exceeds the device's "
                        "maxComputeWorkGroupInvocations %u / "
                        "maxComputeWorkGroupSize[0] %u", name, c->wg,
                        in->max_invocations, in->max_wg_size_x);
    if (groups > in->max_wg_count_x)
        return vkb_errf(err, VKB_EREFUSED, "%s: --n %u --wg %u needs %llu "
                        "workgroups; maxComputeWorkGroupCount[0] is %u", name,
                        c->n, c->wg, (unsigned long long)groups,
                        in->max_wg_count_x);
    if (need > in->max_smem)
        return vkb_errf(err, VKB_EREFUSED, "%s: --bins %u needs %u bytes of "
                        "shared memory; maxComputeSharedMemorySize is %u",
                        name, c->bins, need, in->max_smem);
    if (c->smem_per_wg > in->max_smem)
        return vkb_errf(err, VKB_EREFUSED, "%s: --smem-per-wg %u exceeds "
                        "maxComputeSharedMemorySize %u", name,
                        c->smem_per_wg, in->max_smem);
    if (tbytes > in->max_storage_range || obytes > in->max_storage_range)
        return vkb_errf(err, VKB_EREFUSED, "%s: a %llu-byte buffer exceeds "
                        "maxStorageBufferRange %u", name,
                        (unsigned long long)(tbytes > obytes ? tbytes
                                                             : obytes),
                        in->max_storage_range);
    return VKB_OK;
}
