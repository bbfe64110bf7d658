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

/* `atomsim check`: with csv, the CSV table alone (formula, against, metric,
 * value, tolerance, points, within, status, where); as text, a header
 * naming the config (its hash), the grid's size and the dataset (data:
 * its path, NULL when none was checked), the table, and the count of
 * drifts. */
void crep_check(const chk_report *rep, const cfg_config *cfg, const char *data, int csv);

#endif
