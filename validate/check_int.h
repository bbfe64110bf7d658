/* check_int.h - what the two files of the check module share
 * (check_formulas.c: the grid, the formulas and the measured dataset;
 * check_seeds.c: the seeds' claims).  Not for use outside them. */
#ifndef ATOM_VALIDATE_CHECK_INT_H
#define ATOM_VALIDATE_CHECK_INT_H

#include "../model/params.h"
#include "../model/stats.h"
#include "check_formulas.h"

/* One point of the simulator grid: both engines' statistics. */
typedef struct chk_point {
    pat_params p;
    atom_stats sim, mdl;
    int sim_rc, mdl_rc;
} chk_point;

#define CHK_GRID_MAX 160

/* The next record of rep, zeroed but for its names and tolerance. */
chk_result *chk_new_result(chk_report *rep, const char *name, const char *against, const char *metric,
                           double tolerance);

/* The median of v[0..n-1], sorting v in place; NAN for n <= 0. */
double chk_median(double *v, int n);

/* The seeds' claims, appended to rep: against the grid's simulated CAS
 * loops (count points of g), the measured dataset d (NULL: skipped) and
 * the model with the CPU tier. */
void chk_seeds(chk_report *rep, const cfg_config *cfg, const cpu_config *cpu, const chk_point *g, int count,
               const val_dataset *d);

#endif
