/* Submitting one command buffer and waiting for it with a bound, and
 * reading a pair of timestamps: shared by the measurement loop and the
 * clock guard, so that a hung dispatch is an error everywhere. */
#ifndef VKB_SUBMIT_H
#define VKB_SUBMIT_H

#include "vkb_gpu.h"

/* A dispatch that has not finished by then is treated as hung. */
#define VKB_FENCE_TIMEOUT_NS 10000000000ull

/* Submits cb alone and waits on fence (reset first). what names the work
 * in the error. */
int vkb_submit_wait(const vkb_gpu *g, VkCommandBuffer cb, VkFence fence,
                    const char *what, char *err);

/* Microseconds between timestamp queries first and first + 1. */
int vkb_timestamp_us(const vkb_gpu *g, VkQueryPool qp, uint32_t first,
                     double *us, char *err);

#endif
