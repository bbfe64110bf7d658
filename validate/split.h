/* split.h - which measured rows a calibration may fit and which it must
 * predict unseen.  A split file (validate/splits/<gpu>.split) holds out whole
 * sweeps by pattern and parameter values, never random rows:
 *
 *   # comment
 *   test histogram bins=3,128,2048      a histogram row with one of these bins
 *   test bitmask                        every bitmask row
 *   test * wg=64,512                    any pattern at wg 64 or 512
 *
 * A row is a test row when it matches any `test` line (a pattern name or `*`,
 * then fields named by the parameter table's CSV columns, n, wg,
 * selectivity, bins, hot, addresses, smem_per_wg, each a comma list, all of
 * which must match); every other row is a fit row.  A `spent` line, in the
 * same form, takes the test rows it matches out of the test side without
 * giving them to the fit: rows re-measured in a probe that shaped a
 * mechanism are no longer held out, and the fit must not change because of
 * it.  A spent line that matches a fit row leaves it a fit row.
 *
 *   spent histogram n=1048576 bins=2048   measured again in a probe */
#ifndef ATOM_VALIDATE_SPLIT_H
#define ATOM_VALIDATE_SPLIT_H

#include <stddef.h>

#include "dataset.h"

#define VAL_SPLIT_MAX_RULES 64
#define VAL_SPLIT_MAX_VALUES 16

typedef struct val_split_rule {
    int spent;                                    /* 0: a test line, 1: a spent line */
    int pattern;                                  /* enum pat_id, or -1 for any */
    int nvalues[PP_COUNT];                        /* by enum pat_param_id; 0: not constrained */
    double values[PP_COUNT][VAL_SPLIT_MAX_VALUES];
} val_split_rule;

typedef struct val_split {
    val_split_rule rules[VAL_SPLIT_MAX_RULES];
    int count;
    char path[512];
} val_split;

/* A row's side; --rows all takes every side. */
enum val_rows { VAL_ROWS_ALL = 0, VAL_ROWS_FIT = 1, VAL_ROWS_TEST = 2, VAL_ROWS_SPENT = 3 };

/* Returns 0, or -1 with err naming the file, line and problem. */
int val_split_load(const char *path, val_split *s, char err[CFG_ERR_MAX]);

/* The row's side: VAL_ROWS_FIT, VAL_ROWS_TEST or VAL_ROWS_SPENT. */
enum val_rows val_split_side(const val_split *s, const pat_params *p);
/* 1 when the row is held out for testing (and not spent). */
int val_split_is_test(const val_split *s, const pat_params *p);

/* keep[i] = 1 for the rows of `which` (fit, test, spent or all); returns how many. */
size_t val_split_mask(const val_split *s, const val_dataset *d, enum val_rows which, unsigned char *keep);

/* "fit", "test", "spent", "all" -> enum; -1 when unknown. */
int val_rows_from_name(const char *name);

#endif
