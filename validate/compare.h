/* compare.h - predictions for every measured row, and the error figures
 * that say how close they come: median and 90th-percentile absolute
 * percentage error and Spearman rank correlation, per pattern and overall. */
#ifndef ATOM_VALIDATE_COMPARE_H
#define ATOM_VALIDATE_COMPARE_H

#include <stddef.h>

#include "../model/stats.h"
#include "dataset.h"
#include "split.h"

typedef int (*val_engine_fn)(const cfg_config *cfg, const pat_params *p, atom_stats *st, char err[CFG_ERR_MAX]);

enum val_status { VAL_OK = 0, VAL_FAILED = 1, VAL_BAD_INPUT = 2 };

typedef struct val_prediction {
    double time_us;
    double ape;                        /* |pred - meas| / meas */
    double cas_attempts;               /* the engine's compare-and-swaps (lanes) */
    int status;                        /* enum val_status */
    char err[96];
} val_prediction;

/* Runs fn on every row, `jobs` rows at a time in worker processes. */
int val_predict_all(const cfg_config *cfg, const val_dataset *d, val_engine_fn fn, int jobs, val_prediction *out,
                    char err[CFG_ERR_MAX]);

/* Marks in keep[] (d->count bytes) the rows to score: those whose pattern is
 * named in `only` (comma-separated; NULL: every pattern) and, given a split,
 * on the side `rows` names (enum val_rows; split NULL: every row).  Returns
 * how many are kept. */
size_t val_select(const val_dataset *d, const char *only, const val_split *split, int rows, unsigned char *keep);

/* val_predict_all on the kept rows only; out[i] of a row not kept stays
 * zero.  Returns 0, or -1 with err (out of memory, a worker failed). */
int val_predict_kept(const cfg_config *cfg, const val_dataset *d, const unsigned char *keep, val_engine_fn fn, int jobs,
                     val_prediction *out, char err[CFG_ERR_MAX]);

typedef struct val_summary {
    int rows, ran;
    double ape_median, ape_p90;
    double spearman;                   /* NAN when the measured times span 2x or less */
    double spearman_tied;              /* the same with measured ties below tie_frac (val_spearman_tied); NAN also when tie_frac is 0 */
    double span;                       /* max / min measured time */
} val_summary;

/* Summary of the rows with keep[i] != 0 (all rows when keep is NULL) whose
 * pattern is `pattern` (or every pattern when pattern < 0); tie_frac > 0
 * also fills spearman_tied. */
void val_summarize(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, int pattern,
                   double tie_frac, val_summary *s);

/* Spearman's rho where values of x (the measurement) closer than tie_frac
 * count as equal and y's (the prediction's) order among them is not
 * scored: a run of sorted x values each within tie_frac of the run's first
 * shares the run's mean rank, and the y ranks of its rows are replaced by
 * their mean. Two boards measure the same row 0.45% apart at the median
 * (validate/data/repeats/h100-b2.csv), so rows closer than that carry no
 * order a model could be asked to reproduce; a prediction's own near ties earn
 * nothing where the measurement does order its rows. tie_frac = 0 leaves
 * only exact measured ties unscored. work holds 2 n doubles, idx n indices. NAN for n < 2
 * or when one side is all one rank. */
double val_spearman_tied(const double *x, const double *y, size_t n, double tie_frac, double *work, size_t *idx);

/* The regions accuracy is reported by (issue 21's frozen-set protocol,
 * docs/accuracy.md): the pattern; the workgroup size (32-64, 65-128,
 * 129-256, 257-640, 641-1024 threads); the shared memory a workgroup
 * allocates (0-8, 8-32, 32-48 KiB, the pattern's own need included); n
 * (up to 2^18, up to 2^21, above). */
enum val_axis { VAL_BY_PATTERN = 0, VAL_BY_WG, VAL_BY_SMEM, VAL_BY_N };

/* The axis called `name` (pattern, wg, smem, n), or -1. */
int val_axis_from_name(const char *name);
/* Its name as a CSV column: pattern, wg, smem_per_wg, n. */
const char *val_axis_column(enum val_axis a);
/* How many regions it has, the region of p, and region r's label. */
int val_regions(enum val_axis a);
int val_region_of(enum val_axis a, const pat_params *p);
const char *val_region_label(enum val_axis a, int r);

/* val_summarize over region r of axis a (r < 0: every row kept). */
void val_summarize_region(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, enum val_axis a,
                          int r, double tie_frac, val_summary *s);

/* Simulated over GPU-counted compare-and-swaps, over the same rows as
 * val_summarize that have a count (d->has_cas) and ran. */
typedef struct val_cas_summary {
    int rows;                          /* rows with a count that ran */
    double ratio_median, ratio_min, ratio_max;
} val_cas_summary;

void val_summarize_cas(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, int pattern,
                       val_cas_summary *s);

#endif
