/* Bounded submission and timestamp reading (see vkb_submit.h). */
#include "vkb_submit.h"

#include "vkb_common.h"

int vkb_submit_wait(const vkb_gpu *g, VkCommandBuffer cb, VkFence fence,
                    const char *what, char *err)
{
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cb,
    };
    VkResult r = vkResetFences(g->dev, 1, &fence);
    if (r == VK_SUCCESS)
        r = vkQueueSubmit(g->queue, 1, &si, fence);
    if (r != VK_SUCCESS)
        return vkb_errf(err, VKB_EFAIL, "submitting the %s: %s", what,
                        vkb_vk_result(r));
    r = vkWaitForFences(g->dev, 1, &fence, VK_TRUE, VKB_FENCE_TIMEOUT_NS);
    if (r == VK_TIMEOUT)
        return vkb_errf(err, VKB_EFAIL, "the %s did not finish within "
                        "%llu s; giving up on the device", what,
                        VKB_FENCE_TIMEOUT_NS / 1000000000ull);
    if (r != VK_SUCCESS)
        return vkb_errf(err, VKB_EFAIL, "waiting for the %s: %s", what,
                        vkb_vk_result(r));
    return VKB_OK;
}

int vkb_timestamp_us(const vkb_gpu *g, VkQueryPool qp, uint32_t first,
                     double *us, char *err)
{
    uint64_t ts[2];
    VkResult r = vkGetQueryPoolResults(
        g->dev, qp, first, 2, sizeof ts, ts, sizeof ts[0],
        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS)
        return vkb_errf(err, VKB_EFAIL, "vkGetQueryPoolResults: %s",
                        vkb_vk_result(r));
    uint32_t bits = g->info.ts_valid_bits;
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    *us = (double)((ts[1] - ts[0]) & mask) * g->info.ts_period_ns / 1000.0;
    return VKB_OK;
}
