/* Whether a configuration fits the device: workgroup size, workgroup
 * count, shared memory and buffer range, each against the limit the device
 * reports, refused with one line that names both numbers. */
#ifndef VKB_LIMITS_H
#define VKB_LIMITS_H

#include "vkb_cfg.h"
#include "vkb_gpu.h"

/* c must be normalized; out_mode as for vkb_pattern_out_words. VKB_OK, or
 * VKB_EREFUSED with the reason. */
int vkb_limits_admit(const vkb_gpu_info *in, const vkb_cfg *c, int out_mode,
                     char *err);

#endif
