/* lines.c - bounded line reading for every text reader (lines.h). */
#include "lines.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int lin_regular(const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st)) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    return 0;
}

static int alloc_line(lin_reader *r)
{
    r->line = malloc(r->max_line + 2);
    return r->line ? 0 : -1;
}

void lin_attach(lin_reader *r, FILE *f, const char *name, size_t max_line, size_t max_bytes)
{
    memset(r, 0, sizeof *r);
    r->f = f;
    r->path = name;
    r->max_line = max_line;
    r->max_bytes = max_bytes;
}

int lin_open(lin_reader *r, const char *path, size_t max_line, size_t max_bytes, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (!strcmp(path, "-")) {
        lin_attach(r, stdin, "(standard input)", max_line, max_bytes);
    } else {
        FILE *f = fopen(path, "r");
        struct stat st;
        if (!f) {
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
            return -1;
        }
        /* fstat on the open file: no window between the check and the read */
        if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
            fclose(f);
            snprintf(err, errlen, "%s: not a regular file", path);
            return -1;
        }
        if ((size_t)st.st_size > max_bytes) {
            fclose(f);
            snprintf(err, errlen, "%s: larger than %zu MB", path, max_bytes >> 20);
            return -1;
        }
        lin_attach(r, f, path, max_line, max_bytes);
        r->owns = 1;
    }
    if (alloc_line(r)) {
        lin_close(r);
        snprintf(err, errlen, "%s: out of memory", path);
        return -1;
    }
    return 0;
}

int lin_open_as(lin_reader *r, const char *path, const char *what, size_t max_line, char *err, size_t errlen)
{
    struct stat st;
    memset(r, 0, sizeof *r);
    if (stat(path, &st)) {
        snprintf(err, errlen, "%s: cannot open %s: %s", path, what, strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        return -1;
    }
    if (!strcmp(path, "-")) { /* lin_open would read stdin: open the file itself */
        FILE *f = fopen(path, "r");
        if (!f) {
            snprintf(err, errlen, "%s: cannot open %s: %s", path, what, strerror(errno));
            return -1;
        }
        lin_attach(r, f, path, max_line, LIN_MAX_BYTES);
        r->owns = 1;
        return 0;
    }
    return lin_open(r, path, max_line, LIN_MAX_BYTES, err, errlen);
}

/* lin_next's error: "PATH:LINE: why" (or "PATH: why" for line 0), with
 * the line and the reason's offset kept on the reader. */
static int next_fail(lin_reader *r, char *err, size_t errlen, unsigned long line, const char *fmt, ...)
{
    int at = line ? snprintf(err, errlen, "%s:%lu: ", r->path, line) : snprintf(err, errlen, "%s: ", r->path);
    r->err_line = line;
    r->err_why = at > 0 && (size_t)at < errlen ? (size_t)at : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err + r->err_why, errlen - r->err_why, fmt, ap);
    va_end(ap);
    return -1;
}

int lin_next(lin_reader *r, char *err, size_t errlen)
{
    if (!r->line && alloc_line(r)) {
        return next_fail(r, err, errlen, 0, "out of memory");
    }
    size_t n = 0;
    int c = EOF;
    /* One byte at a time through stdio's buffer: a line's length and its
     * NUL bytes are known without trusting fgets' view of the line. */
    while ((c = getc(r->f)) != EOF && c != '\n') {
        if (c == 0) {
            return next_fail(r, err, errlen, r->lineno + 1, "NUL byte in a text line");
        }
        if (n > r->max_line) {
            return next_fail(r, err, errlen, r->lineno + 1, "line longer than %zu bytes", r->max_line);
        }
        r->line[n++] = (char)c;
    }
    if (ferror(r->f)) {
        return next_fail(r, err, errlen, 0, "read error: %s", strerror(errno));
    }
    if (c == EOF && n == 0)
        return 0;
    r->bytes += n + (c == '\n');
    if (r->bytes > r->max_bytes) {
        return next_fail(r, err, errlen, 0, "larger than %zu MB", r->max_bytes >> 20);
    }
    if (n && r->line[n - 1] == '\r')
        n--;
    if (n > r->max_line) {
        return next_fail(r, err, errlen, r->lineno + 1, "line longer than %zu bytes", r->max_line);
    }
    r->line[n] = 0;
    r->len = n;
    r->lineno++;
    return 1;
}

void lin_close(lin_reader *r)
{
    if (r->owns && r->f)
        fclose(r->f);
    free(r->line);
    r->f = NULL;
    r->line = NULL;
}
