/* lines.h - reading a text input line by line, within bounds.
 *
 * Every reader of the project's text files (datasets, splits, studies,
 * points, plans, CPU configs, batches) goes through here, so that each
 * refuses the same things with the same words instead of looping on
 * /dev/zero, splitting a long line in two or reading past a NUL byte:
 * a path that is not a regular file, a file over max_bytes, a line over
 * max_line bytes, a NUL byte.  Errors are one line naming the file and,
 * where there is one, the line number: "FILE:LINE: line longer than N bytes".
 *
 *   lin_reader r;
 *   if (lin_open(&r, path, LIN_MAX_LINE, LIN_MAX_BYTES, err, sizeof err))
 *       return -1;
 *   while ((rc = lin_next(&r, err, sizeof err)) > 0)
 *       use(r.line, r.len, r.lineno);
 *   lin_close(&r);      (rc < 0: err says why)
 */
#ifndef ATOM_UTIL_LINES_H
#define ATOM_UTIL_LINES_H

#include <stddef.h>
#include <stdio.h>

/* The defaults: longer than any line the project writes, small enough that
 * a wrong file is refused in a moment. */
#define LIN_MAX_LINE 4096
#define LIN_MAX_BYTES (256u << 20)

typedef struct lin_reader {
    FILE *f;
    const char *path;
    char *line;         /* the current line, without its \n or \r\n */
    size_t len;         /* its length */
    unsigned long lineno; /* 1 for the first line */
    size_t max_line;
    size_t max_bytes;
    size_t bytes;       /* read so far */
    int owns;           /* f is ours to close (not stdin) */
    /* after lin_next's -1: the line it names (0: none) and where in err
     * the reason starts, past "PATH:LINE: ", for a caller that reports the
     * line in its own form */
    unsigned long err_line;
    size_t err_why;
} lin_reader;

/* Opens path ("-" is standard input, which need not be a regular file).
 * 0, or -1 with err set and nothing to close. */
int lin_open(lin_reader *r, const char *path, size_t max_line, size_t max_bytes, char *err, size_t errlen);
/* lin_open with the readers' wording for a path that cannot be opened:
 * "PATH: cannot open WHAT: REASON" ("cannot open dataset: No such file or
 * directory"), checked with stat before any open, so that a FIFO is refused
 * rather than waited on.  "-" is a file of that name here, not standard
 * input: the readers that take stdin call lin_open. */
int lin_open_as(lin_reader *r, const char *path, const char *what, size_t max_line, char *err, size_t errlen);
/* Takes over an open stream (not closed by lin_close); no regular-file check. */
void lin_attach(lin_reader *r, FILE *f, const char *name, size_t max_line, size_t max_bytes);
/* 1: r->line holds the next line; 0: end of input; -1: err says why (a
 * long line, a NUL byte, a file over its size, a read error). */
int lin_next(lin_reader *r, char *err, size_t errlen);
void lin_close(lin_reader *r);

/* Whether path names a regular file (stat follows links); 0 yes, -1 with
 * err "PATH: not a regular file" or the open error. */
int lin_regular(const char *path, char *err, size_t errlen);

#endif
