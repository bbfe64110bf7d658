/* model_vs_sim.h - the analytical model held to the simulator on a set of
 * points (`atomsim check --against sim` draws them at random): both
 * engines run every point on the worker pool (util/pool.h), and each
 * pattern is scored by the median and 90th percentile of |model/sim - 1|
 * against the project's goals.
 *
 *   mvs_point *pts = ...;                  parameters filled in (mvs_draw: at random)
 *   rc = mvs_run(&cfg, jobs, pts, n, fault, ctx);   0, or 1: the pool failed
 *   mvs_report rep;
 *   mvs_score_all(pts, n, chosen, nchosen, work, &rep);
 *   exit status: rep.missed || rep.failed ? 1 : 0
 *
 * mvs_check does all of that for `atomsim check --against sim`
 * (model_vs_sim_check.c).
 */
#ifndef ATOM_VALIDATE_MODEL_VS_SIM_H
#define ATOM_VALIDATE_MODEL_VS_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "../model/config.h"
#include "../model/params.h"

/* The project's accuracy goals for the model against the simulator: the
 * median and 90th percentile of |model/sim - 1| over random configurations.
 * They are fixed here as goals, not fitted to what the model reaches today:
 * a pattern that misses them is reported as missing them. */
#define MVS_GOAL_MEDIAN 0.05
#define MVS_GOAL_P90 0.15

/* `atomsim check --against sim`'s defaults and limits. */
#define MVS_DEFAULT_POINTS 600
#define MVS_MAX_POINTS 100000
#define MVS_DEFAULT_SEED 1
/* The plan's default n range ends at 2^24; points here stop at 2^22 so that
 * the simulator finishes a row in seconds rather than minutes. */
#define MVS_N_RANGE "2^10..2^22"
/* A compare-and-swap race costs the simulator about the square of its
 * contenders in events; rows past this budget are counted, not scored.  See
 * tests/long/model_vs_sim.mk for what the default costs in time. */
#define MVS_DEFAULT_MAX_EVENTS 1e8

/* One point: its parameters, both engines' times, or why it is not scored. */
enum mvs_status { MVS_SCORED, MVS_UNFINISHED, MVS_FAILED };

typedef struct mvs_point {
    pat_params p;
    double sim_us, model_us;
    enum mvs_status status;
} mvs_point;

/* Told of a point that failed (engine "model" or "simulator", and why), in
 * point order, so that what it writes is the same for any number of jobs. */
typedef void (*mvs_fault_fn)(void *ctx, const mvs_point *pt, const char *engine, const char *why);

/* Runs both engines on pts[0..count-1] (cfg's event budget bounds the
 * simulator) on `jobs` workers, filling times and status: a row past the
 * budget is MVS_UNFINISHED, one an engine failed on MVS_FAILED (and told
 * to fault).  Returns 0, or 1 when the pool itself failed (said on stderr). */
int mvs_run(const cfg_config *cfg, int jobs, mvs_point *pts, uint64_t count, mvs_fault_fn fault, void *fault_ctx);

/* model/sim - 1 of a scored point. */
double mvs_error(const mvs_point *p);

/* "n=... wg=..." and the flags of q's pattern that it uses. */
void mvs_describe(char *buf, size_t len, const pat_params *q);

typedef struct mvs_score {
    int rows, unfinished, failed, scored;
    double median, p90, worst;         /* |model/sim - 1| */
    const mvs_point *worst_pt;
    int meets;                         /* both goals; 0 with no scored row */
} mvs_score;

typedef struct mvs_report {
    int listed[PAT_COUNT];             /* the patterns scored */
    int npatterns;
    mvs_score per[PAT_COUNT];          /* by pattern, where listed */
    mvs_score all;
    int missed;                        /* listed patterns missing a goal */
    int failed;                        /* rows an engine failed on */
} mvs_report;

/* Scores the points of each of the nchosen patterns in chosen[] and all of
 * them together into *rep; work holds n doubles. */
void mvs_score_all(const mvs_point *pts, uint64_t n, const int *chosen, int nchosen, double *work, mvs_report *rep);

/* ---- the random check (model_vs_sim_check.c) ---------------------------- */

/* Fills pts[0..count-1] with the rows that `atomsim plan --random --seed S
 * --rows count --n-range MVS_N_RANGE --patterns P` writes for the npat
 * patterns in pats[] (the plan's own drawer, validate/plan_draw.c, called
 * rather than copied, so that the two never drift apart), each with the
 * parameters that reading the plan's CSV back gives.  0, or -1 with err. */
int mvs_draw(uint64_t seed, const enum pat_id *pats, int npat, mvs_point *pts, uint64_t count,
             char err[CFG_ERR_MAX]);

/* A whole random check: `count` points drawn (mvs_draw), both engines run
 * on them under cfg (its sim.max_events the budget) on `jobs` workers, and
 * each listed pattern scored. */
typedef struct mvs_check_result {
    mvs_point *pts;                    /* count of them, in draw order */
    uint64_t count;
    mvs_report rep;
} mvs_check_result;

/* 0; -1 with err (out of memory, the draw failed); 1 when the pool failed
 * (said on stderr).  Failed points are told to fault as they come.  Free
 * out with mvs_check_free whatever it returns. */
int mvs_check(const cfg_config *cfg, int jobs, uint64_t seed, uint64_t count, const enum pat_id *pats, int npat,
              mvs_fault_fn fault, void *fault_ctx, mvs_check_result *out, char err[CFG_ERR_MAX]);
void mvs_check_free(mvs_check_result *r);

#endif
