/* calibrate.h - fits a GPU config's calibratable options to a measured
 * dataset, one mechanism at a time.
 *
 * A stage names the keys of one mechanism and the rows that mechanism
 * dominates (cal_stages()).  A stage's objective is the mean absolute
 * log-ratio predicted/measured over its fit rows (robust like the median
 * error it stands for, yet continuous for the line search) (a row the engine cannot
 * finish counts as a factor e off); the search is derivative-free: a
 * golden-section line search in log space for one real key, a candidate list
 * for an integer key, GSL's Nelder-Mead simplex (nmsimplex2) for several.
 * A stage only ever keeps a value that lowers its objective.
 *
 *   cal_options o; cal_options_default(&o);
 *   rc = cal_fit_stage(&cfg, stage, keys, nkeys, &d, fit_mask, &o, &res, err);
 */
#ifndef ATOM_VALIDATE_CALIBRATE_H
#define ATOM_VALIDATE_CALIBRATE_H

#include <stdio.h>

#include "compare.h"

#define CAL_MAX_STAGE_KEYS 4

typedef int (*cal_row_filter)(const pat_params *p);

typedef struct cal_stage {
    const char *name;
    const char *keys[CAL_MAX_STAGE_KEYS];    /* "section.key", NULL-terminated */
    const char *rows;                        /* the row filter, in words */
    cal_row_filter filter;
    const int *candidates;                   /* integer keys: values to try, ending at -1 */
    double min_events;                       /* the stage's event budget per row, when above --max-events */
    int model;                               /* 1: the keys are the model's own, fitted with the model */
    double range[2];                         /* a real key's line search: {lo, hi} whatever its start (a
                                                key whose start may be 0, off); {0, 0}: [x/span, x*span] */
    const char *probe;                       /* NULL: the dataset's fit rows; else every row the filter
                                                accepts of the probe dataset of this name (calibrate
                                                --probe NAME=FILE), for a mechanism the dataset does not
                                                measure outside its held-out rows */
} cal_stage;

/* The stage table, in the order the stages run. */
const cal_stage *cal_stages(size_t *count);

typedef struct cal_options {
    int jobs;                  /* worker processes per evaluation */
    int max_evals;             /* per stage */
    double span;               /* line search bracket: [x/span, x*span] */
    val_engine_fn engine;      /* the simulator: every stage but the model's */
    val_engine_fn model_engine; /* the analytical model: stages with cal_stage.model */
    FILE *log;                 /* progress lines, or NULL */
} cal_options;

void cal_options_default(cal_options *o);

typedef struct cal_key_fit {
    const cfg_option *opt;
    double before, after;
} cal_key_fit;

typedef struct cal_stage_result {
    const cal_stage *stage;
    int nkeys;
    cal_key_fit keys[CAL_MAX_STAGE_KEYS];
    int rows, evals;                         /* rows: those that finish at the start */
    double max_events;                       /* the event budget per row the stage ran with */
    double obj_before, obj_after;            /* mean |log(predicted/measured)| */
    double ape_before, ape_after;            /* median absolute error, fraction */
} cal_stage_result;

/* Parses "section.key" into its option.  Returns 0, or -1 with err set when
 * the key is unknown or not calibratable. */
int cal_key_lookup(const char *name, const cfg_option **opt, char err[CFG_ERR_MAX]);

/* Numeric value of an option in cfg (int, bool, enum and double keys). */
double cal_get(const cfg_config *cfg, const cfg_option *opt);
int cal_set(cfg_config *cfg, const cfg_option *opt, double v, char err[CFG_ERR_MAX]);

/* Rows of d that keep (NULL: all) and the stage's filter both accept. */
size_t cal_stage_rows(const cal_stage *st, const val_dataset *d, const unsigned char *keep, unsigned char *out);

/* Objective over the rows with mask[i] (mean absolute log-ratio, not-run
 * rows count 1); *ape gets the median absolute error when not NULL.  With
 * drop_not_run, rows that do not finish are cleared from mask instead (a
 * stage fits the rows that finish under the starting config). */
int cal_objective(const cfg_config *cfg, const val_dataset *d, unsigned char *mask, const cal_options *o, double *obj,
                  double *ape, int drop_not_run, char err[CFG_ERR_MAX]);

/* Fits opts[0..nopts) on the stage's rows among fit_mask; cfg is updated
 * with the best values found.  Returns 0; 1 when the stage has no rows
 * (cfg unchanged, res->rows = 0); -1 with err set on failure. */
int cal_fit_stage(cfg_config *cfg, const cal_stage *st, const cfg_option *const *opts, int nopts, const val_dataset *d,
                  const unsigned char *fit_mask, const cal_options *o, cal_stage_result *res, char err[CFG_ERR_MAX]);

#endif
