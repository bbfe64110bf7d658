/* export_sim.h - `atomsim export --engine sim`: which cells of a cost table
 * the simulator fills (the scope), running them on the worker pool, and the
 * table made from their times, with the model at every other cell.
 *
 *   xs_plan p;
 *   xs_plan_build(&gpu, &cpu, &scope, &p, err);     the simulator's cells, in table order
 *   xs_run(&p, begin, end, jobs, progress, err);   runs cells [begin, end)
 *   xs_table(&p, anchor, &t, err);                 every cell run (or merged in): the table
 *   xs_plan_free(&p);
 *
 * A cell is the simulator's when its pattern is in scope.only (0: every
 * pattern), n <= scope.max_n, its workgroup size is in scope.wg and its
 * shared memory holds as many workgroups an SM as a value of scope.smem
 * (export.c gives every shared-memory value of such a run one time, the
 * lowest's; the simulator runs at the lowest value of scope.smem in the run,
 * so that value's cell is exact).  A cell the simulator cannot finish within
 * the config's sim.max_events takes the model's time and source.  The plan
 * is a pure function of the configs and the scope, and the table of the
 * plan and the simulator's (deterministic) times: the same table for any
 * number of workers and any sharding. */
#ifndef ATOM_APP_EXPORT_SIM_H
#define ATOM_APP_EXPORT_SIM_H

#include <stddef.h>
#include <stdio.h>

#include "../model/export.h"

typedef struct xs_scope {
    unsigned only;                     /* pattern mask, 0: every pattern */
    unsigned long long max_n;
    int wg_count, smem_count;
    double wg[EXP_MAX_VALUES], smem[EXP_MAX_VALUES];
} xs_scope;

/* The minimum: n <= 2^22, wg 64, 256, 1024, shared memory 0, 32 KiB. */
void xs_scope_defaults(xs_scope *s);
/* --sim-wg / --sim-smem: a comma list of integers (2^E allowed), kept
 * sorted and without repeats. */
int xs_scope_list(const char *flag, const char *text, double *v, int *count, char err[CFG_ERR_MAX]);
/* Every listed value must be a grid point of the table's axes. */
int xs_scope_check(const cfg_config *gpu, const xs_scope *s, char err[CFG_ERR_MAX]);
/* One line naming the scope, which a part carries and a merge compares. */
void xs_scope_text(const xs_scope *s, char *buf, size_t len);

enum xs_status { XS_PENDING, XS_SIM, XS_BUDGET };

typedef struct xs_cell {
    pat_params p;                      /* where the simulator runs */
    enum xs_status status;
    double gpu_us;                     /* XS_SIM: the simulator's kernel time */
    double cpu_s;                      /* CPU seconds the run took (over-budget runs too) */
} xs_cell;

typedef struct xs_plan {
    cfg_config gpu;                    /* sim.max_events is the budget */
    cpu_config cpu;
    xs_scope scope;
    size_t count;
    xs_cell *cells;
} xs_plan;

int xs_plan_build(const cfg_config *gpu, const cpu_config *cpu, const xs_scope *s, xs_plan *out,
                  char err[CFG_ERR_MAX]);
void xs_plan_free(xs_plan *p);

/* Runs cells [begin, end) on `jobs` worker processes (progress on stderr
 * when asked and it is a terminal).  Returns 0, or 1 when a run failed for
 * another reason than its event budget (err names the cell) or the pool
 * failed (err is empty: the pool said why on stderr). */
int xs_run(xs_plan *p, size_t begin, size_t end, int jobs, int progress, char err[CFG_ERR_MAX]);

/* The table; every cell of the plan must have run.  The model cells of the
 * patterns in mask `anchor` take simulator / model at their anchor
 * (exp_anchor_pattern).  0, or -1 with err. */
int xs_table(const xs_plan *p, unsigned anchor, exp_table **out, char err[CFG_ERR_MAX]);

/* "histogram n=1024 wg=64 smem_per_wg=0 bins=4 hot=0", for messages. */
void xs_cell_describe(const pat_params *p, char *buf, size_t len);

#endif
