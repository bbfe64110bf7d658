/* out.h - checked output: files written under a temporary name beside
 * their target and renamed only once every byte is out, and standard
 * output checked once at exit, so that a full disk, a closed stdout or an
 * interrupted run is reported instead of leaving a cut-off file or
 * exiting 0 with the output lost.
 *
 *   out_file o;
 *   if (out_open(&o, path, err, sizeof err)) ...    nothing created
 *   fprintf(o.f, ...);
 *   if (out_commit(&o, err, sizeof err)) ...        the target untouched
 *   (or out_abort(&o): the temporary removed, the target untouched)
 *
 * A target that exists and is not a regular file (/dev/null, a FIFO) is
 * written in place: there is nothing to rename over. */
#ifndef ATOM_UTIL_OUT_H
#define ATOM_UTIL_OUT_H

#include <stddef.h>
#include <stdio.h>

typedef struct out_file {
    FILE *f;
    struct out_sink *sink;             /* the descriptor and its first error */
    char path[1024];
    char tmp[1060];                    /* "" when written in place */
    int slot;                          /* in the table of temporaries, or -1 */
} out_file;

/* Opens a temporary file in path's directory.  Returns 0, or -1 with err
 * set ("PATH: why") and nothing created. */
int out_open(out_file *o, const char *path, char *err, size_t errlen);
/* Flushes, checks and closes the file, then renames it over the target.
 * Returns 0, or -1 with err set and the temporary removed. */
int out_commit(out_file *o, char *err, size_t errlen);
/* Closes and removes the temporary; the target stays as it was. */
void out_abort(out_file *o);
/* Whether a write to the file has failed; if so err says why ("PATH:
 * cannot write: No space left on device"), for a caller whose own writer
 * saw only that something failed. */
int out_failed(out_file *o, char *err, size_t errlen);
/* Removes every open temporary.  Async-signal-safe: the signal handler
 * (intr.c) calls it before the process dies. */
void out_unlink_temps(void);

/* At the start of main: a closed stdin, stdout or stderr is reopened on
 * /dev/null the wrong way round (stdout read-only), so that a file the
 * program opens never takes descriptor 1 and writes to stdout fail with
 * EBADF instead of vanishing. */
void out_std_guard(void);
/* Whether standard output failed (an error seen, or a flush that fails
 * now).  The first time it does, one line on stderr: "atomsim CMD:
 * writing standard output: why"; later calls only return 1. */
int out_stdout_failed(const char *cmd);
/* At the end of main: flushes and closes stdout.  Returns rc, or 1 when
 * rc is 0 and stdout failed (reported once, as above). */
int out_stdout_close(const char *cmd, int rc);

#endif
