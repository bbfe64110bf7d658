/* calibrate_report.h - the printers of `atomsim calibrate` (the run
 * itself: validate/calibrate_run.h). */
#ifndef ATOM_APP_CALIBRATE_REPORT_H
#define ATOM_APP_CALIBRATE_REPORT_H

#include <stdio.h>

#include "../validate/calibrate_run.h"

/* A stage's line: the keys before and after, its objective and median
 * error, evaluations and seconds; or, res NULL, that it was skipped. */
void calrep_stage(FILE *f, const cal_stage *st, const cal_stage_result *res, double seconds);

/* The residual table: per pattern and overall, fit and test rows, before
 * and after (rows run/rows, median and p90 error, Spearman); written to f
 * with `prefix` before every line. */
void calrep_residuals(FILE *f, const char *prefix, const val_dataset *d, const val_prediction *before,
                      const val_prediction *after, const unsigned char *fit, const unsigned char *test);

/* Writes the overlay INI `out` (through a temporary, util/out.h): a header naming the
 * command line, config, data, split, date and residuals, then only the
 * fitted keys, each with its stage's figures.  Returns 0, or -1 with err
 * set. */
int calrep_overlay(const char *out, int argc, char **argv, const char *data, const char *split, const cfg_config *cfg,
                   const val_dataset *d, const cal_run *run, char err[CFG_ERR_MAX]);

#endif
