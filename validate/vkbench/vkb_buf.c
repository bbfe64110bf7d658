/* Buffers for atomic targets (device-local) and their readback copies
 * (host-visible); see vkb_buf.h. */
#include "vkb_buf.h"

#include "vkb_common.h"

void vkb_buf_free(const vkb_gpu *g, vkb_buf *b)
{
    if (b->map)
        vkUnmapMemory(g->dev, b->mem);
    if (b->buf)
        vkDestroyBuffer(g->dev, b->buf, NULL);
    if (b->mem)
        vkFreeMemory(g->dev, b->mem, NULL);
    b->buf = VK_NULL_HANDLE;
    b->mem = VK_NULL_HANDLE;
    b->map = NULL;
    b->cap = 0;
}

int vkb_buf_ensure(const vkb_gpu *g, vkb_buf *b, VkDeviceSize bytes,
                   char *err)
{
    const VkDeviceSize grain = 65536;
    VkMemoryRequirements req;
    VkResult r;

    if (b->cap >= bytes)
        return VKB_OK;
    vkb_buf_free(g, b);
    VkDeviceSize cap = (bytes + grain - 1) / grain * grain;
    VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = cap,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                 VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    r = vkCreateBuffer(g->dev, &bci, NULL, &b->buf);
    if (r != VK_SUCCESS)
        return vkb_errf(err, VKB_EFAIL, "vkCreateBuffer(%llu bytes): %s",
                        (unsigned long long)cap, vkb_vk_result(r));
    vkGetBufferMemoryRequirements(g->dev, b->buf, &req);
    int type = vkb_gpu_memtype(g, req.memoryTypeBits, b->readback,
                               &b->coherent);
    if (type < 0) {
        vkb_buf_free(g, b);
        return vkb_errf(err, VKB_EFAIL, "no %s memory type for a buffer",
                        b->readback ? "host-visible" : "device-local");
    }
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = (uint32_t)type,
    };
    r = vkAllocateMemory(g->dev, &mai, NULL, &b->mem);
    if (r == VK_SUCCESS)
        r = vkBindBufferMemory(g->dev, b->buf, b->mem, 0);
    if (r == VK_SUCCESS && b->readback)
        r = vkMapMemory(g->dev, b->mem, 0, VK_WHOLE_SIZE, 0, &b->map);
    if (r != VK_SUCCESS) {
        vkb_buf_free(g, b);
        return vkb_errf(err, VKB_EFAIL, "allocating %llu bytes of %s "
                        "memory: %s", (unsigned long long)cap,
                        b->readback ? "host-visible" : "device-local",
                        vkb_vk_result(r));
    }
    b->cap = cap;
    return VKB_OK;
}

int vkb_buf_invalidate(const vkb_gpu *g, const vkb_buf *b, char *err)
{
    if (b->coherent || !b->map)
        return VKB_OK;
    VkMappedMemoryRange range = {
        .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
        .memory = b->mem,
        .offset = 0,
        .size = VK_WHOLE_SIZE,
    };
    VkResult r = vkInvalidateMappedMemoryRanges(g->dev, 1, &range);
    if (r != VK_SUCCESS)
        return vkb_errf(err, VKB_EFAIL, "vkInvalidateMappedMemoryRanges: %s",
                        vkb_vk_result(r));
    return VKB_OK;
}
