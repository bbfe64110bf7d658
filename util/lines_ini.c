/* lines_ini.c - inih's line source over the bounded reader (lines_ini.h). */
#include "lines_ini.h"

#include <stdio.h>
#include <string.h>

int lin_ini_open(lin_ini *s, const char *path, const char *what, char *err, size_t errlen)
{
    s->err[0] = 0;
    s->failed = 0;
    return lin_open_as(&s->in, path, what, LIN_MAX_LINE, err, errlen);
}

char *lin_ini_read(char *str, int num, void *stream)
{
    lin_ini *s = stream;
    int rc = lin_next(&s->in, s->err, sizeof s->err);
    if (rc <= 0) {
        s->failed = rc < 0;
        return NULL;
    }
    /* inih's buffer holds num - 1 characters: a longer line is refused
     * whole, never split */
    if (num < 1 || s->in.len >= (size_t)num) {
        snprintf(s->err, sizeof s->err, "%s:%lu: line longer than %d characters", s->in.path, s->in.lineno, num - 1);
        s->failed = 1;
        return NULL;
    }
    memcpy(str, s->in.line, s->in.len + 1);
    return str;
}

void lin_ini_close(lin_ini *s)
{
    lin_close(&s->in);
}
