/* Walks "--flag value" / "--flag=value" words, the same on the command line
 * and on a plan line: sweep flags go to the sweep, a caller's own flags to
 * its callback, anything else is a usage error naming the word. */
#ifndef VKB_ARGS_H
#define VKB_ARGS_H

#include "vkb_cfg.h"

typedef struct vkb_flag {
    const char *name; /* without the leading dashes */
    int takes_value;
} vkb_flag;

typedef int (*vkb_flag_fn)(void *ctx, const char *name, const char *value,
                           char *err);

/* extra may be NULL (a plan line); the list ends with a NULL name. */
int vkb_args_walk(int argc, char **argv, vkb_sweep *sw,
                  const vkb_flag *extra, vkb_flag_fn fn, void *ctx,
                  char *err);

#endif
