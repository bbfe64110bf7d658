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
 * which must match); every other row is a fit row. */
#ifndef ATOM_VALIDATE_SPLIT_H
#define ATOM_VALIDATE_SPLIT_H

#include <stddef.h>

#include "dataset.h"

#define VAL_SPLIT_MAX_RULES 64
#define VAL_SPLIT_MAX_VALUES 16

typedef struct val_split_rule {
    int pattern;                                  /* enum pat_id, or -1 for any */
    int nvalues[PP_COUNT];                        /* by enum pat_param_id; 0: not constrained */
    double values[PP_COUNT][VAL_SPLIT_MAX_VALUES];
} val_split_rule;

typedef struct val_split {
    val_split_rule rules[VAL_SPLIT_MAX_RULES];
    int count;
    char path[512];
} val_split;

enum val_rows { VAL_ROWS_ALL = 0, VAL_ROWS_FIT = 1, VAL_ROWS_TEST = 2 };

/* Returns 0, or -1 with err naming the file, line and problem. */
int val_split_load(const char *path, val_split *s, char err[CFG_ERR_MAX]);

/* 1 when the row is held out for testing. */
int val_split_is_test(const val_split *s, const pat_params *p);

/* keep[i] = 1 for the rows of `which` (fit, test or all); returns how many. */
size_t val_split_mask(const val_split *s, const val_dataset *d, enum val_rows which, unsigned char *keep);

/* "fit", "test", "all" -> enum; -1 when unknown. */
int val_rows_from_name(const char *name);

#endif
