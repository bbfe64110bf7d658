/* check_report.h - the printers of `atomsim check` in its three modes: the
 * formula checks (validate/check_formulas.h), the model against the
 * simulator on random points (validate/model_vs_sim.h) and the dispatch
 * rules on a routing truth set (validate/routing.h).  The figures come from
 * those modules; these only format them, on stdout unless a FILE is
 * named. */
#ifndef ATOM_APP_CHECK_REPORT_H
#define ATOM_APP_CHECK_REPORT_H

#include <stdio.h>

#include "../validate/check_formulas.h"
#include "../validate/model_vs_sim.h"
#include "../validate/routing.h"

/* `atomsim check`: with csv, the CSV table alone (formula, against, metric,
 * value, tolerance, points, within, status, where); as text, a header
 * naming the config (its hash), the grid's size and the dataset (data:
 * its path, NULL when none was checked), the table, and the count of
 * drifts. */
void crep_check(const chk_report *rep, const cfg_config *cfg, const char *data, int csv);

/* `atomsim check --against sim`: what the header says of the run. */
typedef struct crep_mvs_run {
    const char *config_path;
    unsigned long long hash;           /* the config's, before the event budget */
    unsigned long long seed, points;
    const char *n_range;               /* as given to the plan */
    double max_events;
} crep_mvs_run;

/* The scores: with csv, a header line and one row per listed pattern and
 * `all` (pattern, rows, unfinished, failed, scored, median, p90, goals,
 * worst); as text, a header naming the run and the goals, the same table
 * and a line counting the patterns that miss a goal and the unfinished
 * rows.  Patterns in the table's order. */
void crep_mvs(const mvs_report *rep, const crep_mvs_run *run, int csv);

/* --rows-out: every point (the pattern, the parameter table's columns),
 * both times, its error and status, as CSV into the file `path` (through
 * a temporary, util/out.h).  0, or -1 with its line on stderr. */
int crep_mvs_rows(const char *path, const mvs_point *pts, uint64_t n);

/* A point an engine failed on, said on stderr as it comes (in point
 * order): mvs_run's fault function. */
void crep_mvs_fault(void *ctx, const mvs_point *pt, const char *engine, const char *why);

/* All of a finished random check: --rows-out when rows_out is not NULL,
 * then crep_mvs on stdout.  Returns the exit status: 0 every pattern meets
 * the goals, 1 one misses them, a row failed or a write failed (said). */
int crep_mvs_write(const mvs_check_result *res, const crep_mvs_run *run, const char *rows_out, int csv);

/* `atomsim check --routing`: each scored row (its parameters, both
 * measured times and the faster side, the table's predictions, both
 * rules' decisions and misroutes, then each side's band on the part it
 * scales: kernel, CPU compute) as CSV into f. */
void crep_routing_rows(FILE *f, const val_route_row *rows, size_t n);

/* The truth set's counts, each rule's misroutes and regret, and the
 * table's accuracy on the set; with csv, the rule table alone (rule, rows,
 * misroutes, misroute_pct, regret_pct, then each side's band coverage:
 * banded, inside, below, above, the GPU's then the CPU's; then, on the
 * cost rule's line only, its close calls, the misroutes among them and
 * the other rows' regret). */
void crep_routing_stats(const val_route_stats *s, int csv);

#endif
