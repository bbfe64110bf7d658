/* check_formulas.h - the regression checks of `atomsim check`: every named
 * cost formula held to the simulator over a small grid, the composed model
 * to a measured dataset, and the seeds' claims to both (reported, never
 * failed: a seed that is simply wrong is a finding, not a regression).
 *
 *   chk_inputs in = { &cfg, &cpu, dataset_or_NULL, 1, quick, jobs };
 *   chk_report rep;
 *   rc = chk_run(&in, &rep, err);          0, or -1 with err
 *   exit status: rep.drifted ? 1 : 0
 *
 * Every check is one record of a chk_report, in a fixed order; the
 * printers (app/check_report.c) only format them. */
#ifndef ATOM_VALIDATE_CHECK_FORMULAS_H
#define ATOM_VALIDATE_CHECK_FORMULAS_H

#include "../model/config.h"
#include "../model/cpu_config.h"
#include "dataset.h"

enum chk_status { CHK_HOLDS, CHK_DRIFT, CHK_SEED_HOLDS, CHK_SEED_FAILS, CHK_SKIPPED };

typedef struct chk_result {
    char name[64];                    /* the formula */
    char against[16];                 /* sim, measured or model+cpu */
    char metric[40];
    double value, tolerance;
    int points, within;               /* points within the per-point tolerance */
    char where[200];                  /* where it fails worst, and by how much */
    enum chk_status status;
} chk_result;

/* More than the checks there are (5 + 2 per pattern + 11 seeds' claims):
 * a record past it overwrites the last, as a guard, never past the array. */
#define CHK_MAX_RESULTS 96

typedef struct chk_report {
    chk_result results[CHK_MAX_RESULTS];
    int count;                        /* records filled, in the order run */
    int grid_points;                  /* simulated grid points (0: no simulator) */
    int drifted;                      /* records with CHK_DRIFT */
} chk_report;

typedef struct chk_inputs {
    const cfg_config *cfg;
    const cpu_config *cpu;            /* the CPU tier of the 10% threshold's claim */
    const val_dataset *data;          /* NULL: no checks against measurements */
    int sim;                          /* 0: no simulator grid (--no-sim) */
    int quick;                        /* the smaller CAS points (--quick) */
    int jobs;                         /* worker processes for the grid */
} chk_inputs;

/* Runs every check into *rep (the grid on the worker pool, util/pool.h).
 * Returns 0, or -1 with err set (the pool failed, said on stderr; out of
 * memory). */
int chk_run(const chk_inputs *in, chk_report *rep, char err[CFG_ERR_MAX]);

/* "holds", "DRIFT", "seed holds", "seed fails", "skipped". */
const char *chk_status_name(enum chk_status s);

#endif
