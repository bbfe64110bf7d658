/* validate_report.h - the printers of `atomsim validate`: the scored rows
 * as CSV, the per-pattern summary as text or CSV, the worst rows and the
 * rows not run.  The figures come from validate/compare.h; these only
 * format them. */
#ifndef ATOM_APP_VALIDATE_REPORT_H
#define ATOM_APP_VALIDATE_REPORT_H

#include <stddef.h>

#include "../validate/compare.h"

/* One CSV row per kept row: its parameters, measured and predicted times,
 * error and status (and the compare-and-swap counts when the data has them). */
void vrep_rows_csv(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, const char *engine);

/* The summary by region of `by` (by pattern: one row a pattern) and
 * overall, as CSV (pattern or the axis's column, rows, ran, median_ape,
 * p90_ape, spearman, spearman_tied, span; fractions, empty where a figure
 * does not exist): what scripts and tests read. */
void vrep_summary_csv(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, double tie_frac,
                      enum val_axis by);

/* The human report: the summary table by region of `by` (with spearman~
 * when tie_frac > 0),
 * the compare-and-swap counts, the `worst` rows by error and the rows not
 * run. */
void vrep_summary_text(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, const char *data_path,
                       const char *config_path, const char *engine, double tie_frac, enum val_axis by, size_t worst);

/* 1 (having said why on stderr) when the overall figures pass a threshold
 * (NAN: none). */
int vrep_past_thresholds(const val_summary *all, double max_median, double max_p90, double min_spearman);

#endif
