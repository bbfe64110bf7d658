/* The error-text helper of vkb_common.h. */
#include "vkb_common.h"

#include <stdarg.h>
#include <stdio.h>

int vkb_errf(char *err, int rc, const char *fmt, ...)
{
    va_list ap;

    if (err) {
        va_start(ap, fmt);
        vsnprintf(err, VKB_ERRLEN, fmt, ap);
        va_end(ap);
    }
    return rc;
}
