/* calibrate_run.h - a whole calibration, as `atomsim calibrate` runs it
 * (calibrate.h fits one stage): the keys to fit, the fit and test rows of
 * a split, every stage in turn on the keys it fits, and the predictions
 * of every row before and after.  Its printers are app/calibrate_report.c.
 *
 *   n = keys ? cal_keys_parse(keys, want, CAL_MAX_KEYS, err) : cal_keys_all(want, CAL_MAX_KEYS);
 *   cal_run_init(&r, &d, split, err);               fit/test masks
 *   cal_run_stages(&r, &cfg, want, n, &d, &o, done, ctx, err);
 *   cal_run_residuals(&r, &cfg0, &cfg, &d, &o, err);
 *   cal_run_free(&r);
 */
#ifndef ATOM_VALIDATE_CALIBRATE_RUN_H
#define ATOM_VALIDATE_CALIBRATE_RUN_H

#include "calibrate.h"
#include "split.h"

#define CAL_MAX_KEYS 64
#define CAL_MAX_RESULTS 32 /* at least the stage count (cal_run_stages refuses fewer) */
#define CAL_MAX_PROBES 8

/* A probe dataset a stage fits on (cal_stage.probe): its name, its file,
 * its rows (every row is a fit row: probes are never held out). */
typedef struct cal_probe {
    const char *name, *path;
    val_dataset d;
} cal_probe;

/* The probe of this name, or NULL. */
const cal_probe *cal_probe_find(const cal_probe *probes, int n, const char *name);

/* Whether some stage fits on a probe of this name. */
int cal_probe_known(const char *name);

/* The keys of a comma list "section.key,...", each calibratable (so fitted
 * by some stage), at most `max`.  Returns how many (0: the list names
 * none), or -1 with err set when a key is unknown or not calibratable. */
int cal_keys_parse(const char *list, const cfg_option **keys, int max, char err[CFG_ERR_MAX]);
/* Every calibratable key some stage fits, in stage order; returns how many. */
int cal_keys_all(const cfg_option **keys, int max);

typedef struct cal_run {
    const cal_probe *probes;           /* set before cal_run_stages: the --probe datasets */
    int nprobes;
    const char *skipped;               /* the probe stages left out for want of their probe, or "" */
    unsigned char *fit, *test;         /* masks over the dataset's rows */
    size_t nfit, ntest, nspent;        /* spent: held out of the fit, not scored as test (split.h) */
    val_prediction *before, *after;    /* every row, by cal_run_residuals */
    cal_stage_result res[CAL_MAX_RESULTS]; /* the stages that ran, in order */
    int nres;
} cal_run;

/* The masks: the split's fit and test rows, or every row fits without a
 * split (NULL).  Returns 0, or -1 with err set (out of memory). */
int cal_run_init(cal_run *r, const val_dataset *d, const val_split *split, char err[CFG_ERR_MAX]);
void cal_run_free(cal_run *r);

/* 0 when every stage that fits one of keys[0..nkeys) on a probe has it
 * in r->probes; else -1 with err naming the --probe to give. */
int cal_run_check_probes(const cal_run *r, const cfg_option *const *keys, int nkeys, char err[CFG_ERR_MAX]);

/* Takes out of keys[0..*nkeys) the keys of every stage whose probe
 * r->probes lacks (a calibration of every key on a GPU no probe measured
 * leaves those keys as the config has them), naming each such stage in
 * skipped (comma-separated, at most len bytes).  Returns how many stages. */
int cal_run_drop_unprobed(const cal_run *r, const cfg_option **keys, int *nkeys, char *skipped, size_t len);

/* Called after each stage that has keys to fit: with its result, or NULL
 * when it had no fit rows that finish (skipped), and the seconds it took. */
typedef void (*cal_stage_done)(void *ctx, const cal_stage *st, const cal_stage_result *res, double seconds);

/* Runs every stage, in the table's order, on those of keys[0..nkeys) it
 * fits, over the fit rows (a probe stage: over its probe's rows); cfg
 * takes each stage's fit before the next.  Returns 0 (r->nres stages ran;
 * 0 when none had fit rows), -1 with err set ("stage NAME: why"), or -2
 * with err set when a stage to run needs a probe r->probes lacks. */
int cal_run_stages(cal_run *r, cfg_config *cfg, const cfg_option *const *keys, int nkeys, const val_dataset *d,
                   const cal_options *o, cal_stage_done done, void *ctx, char err[CFG_ERR_MAX]);

/* Predicts every row under the starting and the fitted config (o's engine
 * and jobs).  Returns 0, or -1 with err set. */
int cal_run_residuals(cal_run *r, const cfg_config *before, const cfg_config *after, const val_dataset *d,
                      const cal_options *o, char err[CFG_ERR_MAX]);

#endif
