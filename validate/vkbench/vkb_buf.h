/* A Vulkan buffer with its memory, grown on demand so that a plan of
 * hundreds of configurations allocates only when a larger one comes. */
#ifndef VKB_BUF_H
#define VKB_BUF_H

#include "vkb_gpu.h"

typedef struct vkb_buf {
    VkBuffer buf;
    VkDeviceMemory mem;
    VkDeviceSize cap;
    void *map;      /* readback buffers only */
    int coherent;
    int readback;   /* host-visible readback, else device-local */
} vkb_buf;

/* Makes b hold at least bytes; its contents are lost when it grows. */
int vkb_buf_ensure(const vkb_gpu *g, vkb_buf *b, VkDeviceSize bytes,
                   char *err);

/* Makes the device's writes visible to the host (non-coherent memory). */
int vkb_buf_invalidate(const vkb_gpu *g, const vkb_buf *b, char *err);

void vkb_buf_free(const vkb_gpu *g, vkb_buf *b);

#endif
