/* Reads a measurement plan: one sweep per line, written with the same
 * flags as the command line (the format is documented in
 * validate/plans/h100.plan and validate/README.md). */
#ifndef VKB_PLAN_H
#define VKB_PLAN_H

#include "vkb_cfg.h"

/* Appends every line's grid to out. reps/warmup are the defaults for lines
 * that set none. Errors name the file and line: VKB_EUSAGE. */
int vkb_plan_read(const char *path, int reps, int warmup, vkb_cfg_list *out,
                  char *err);

#endif
