/* Return codes and the error-text helper shared by every vkbench module.
 * Functions return an int rc and leave a one-line message in a buffer the
 * caller owns, so that only main decides what reaches stderr and how the
 * program exits. */
#ifndef VKB_COMMON_H
#define VKB_COMMON_H

#include <stddef.h>

enum {
    VKB_OK = 0,
    VKB_EFAIL = 1,    /* the device or the run failed: exit status 1 */
    VKB_EUSAGE = 2,   /* bad flags, plan or values: exit status 2 */
    VKB_EREFUSED = 3, /* a configuration outside the device's limits */
    VKB_ESKIP = 4,    /* bounded by --max-dispatch-ms */
    VKB_ECHECK = 5,   /* the GPU's result disagreed with the host */
    VKB_ECLOCK = 6    /* the SM clock would not come back to its top */
};

#define VKB_ERRLEN 512

/* Formats a message into err (VKB_ERRLEN bytes) and returns rc, so that an
 * error path reads `return vkb_errf(err, VKB_EUSAGE, "...", ...)`. */
int vkb_errf(char *err, int rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
