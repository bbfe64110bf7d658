/* plan_write.h - writes the rows of a random harness plan (plan_draw.h):
 * as a vkbench plan (a comment header naming the command, then one line of
 * vkbench flags a row) or as the CSV that `atomsim dispatch --batch` and
 * the datasets' tools read. */
#ifndef ATOM_VALIDATE_PLAN_WRITE_H
#define ATOM_VALIDATE_PLAN_WRITE_H

#include <stdint.h>
#include <stdio.h>

#include "plan_draw.h"

enum plw_format { PLW_PLAN, PLW_CSV };

/* The plan's two comment lines: the command as typed (argv before getopt
 * permuted it), quoted for a POSIX shell so that it can be pasted back to
 * make the file again, then what the file is.  CSV: the header line.
 * fprintf's result: negative on a write error. */
int plw_header(FILE *f, enum plw_format fmt, int argc, char *const *argv, uint64_t rows, int npat);

/* One row, every parameter given, fractions exactly as drawn. */
int plw_row(FILE *f, enum plw_format fmt, const pln_row *w);

/* The whole plan of s: checked (pln_check), drawn, and written with its
 * header to path (NULL: stdout); argv as plw_header takes it.  Returns
 * `atomsim plan`'s exit status with err the line to say: 0, with err a
 * note when rows repeat an earlier one (pln_repeats; "" when none); 2 when
 * s leaves a pattern nothing to draw or path cannot be opened; 1 out of
 * memory or when a write failed.  A file is written through a temporary
 * (util/out.h) and left as it was when a write fails; a failure of stdout
 * leaves err "" (main reports it, once). */
int plw_write(const pln_spec *s, enum plw_format fmt, const char *path, int argc, char *const *argv,
              char err[CFG_ERR_MAX]);

#endif
