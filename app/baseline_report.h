/* baseline_report.h - the printer of `atomsim check --baseline`: what
 * moved between a committed cost-table baseline and today's table
 * (validate/baseline.h computes it; this only formats it). */
#ifndef ATOM_APP_BASELINE_REPORT_H
#define ATOM_APP_BASELINE_REPORT_H

#include <stdio.h>

#include "../validate/baseline.h"

/* On f: a header naming the baseline (path, GPU, both config hashes and
 * the cells compared), the config keys that differ, the cells moved past
 * tolerance per column, the first `show` moves in full (largest first)
 * and a count of the rest, a summary per pattern and column, the flipped
 * decisions (the first `show`), and the verdict line. */
void brep_print(FILE *f, const char *path, const bl_table *base, const bl_table *cur, const bl_result *res, int show);

#endif
