/* model_vs_sim.c - the analytical model held to the simulator on given
 * points (model_vs_sim.h): both engines on the worker pool that sweep and
 * export share, then the error figures per pattern against the goals. */
#include "model_vs_sim.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "../model/model.h"
#include "../sim/engine.h"
#include "../util/pool.h"

/* ---- running both engines on the pool ------------------------------------------------ */

typedef struct job_result {
    int sim_rc, model_rc, budget;
    double sim_us, model_us;
    char sim_err[CFG_ERR_MAX], model_err[CFG_ERR_MAX];
} job_result;

typedef struct job_ctx {
    const cfg_config *cfg;             /* the event budget on top */
    mvs_point *pts;
    mvs_fault_fn fault;
    void *fault_ctx;
} job_ctx;

void mvs_describe(char *buf, size_t len, const pat_params *q)
{
    unsigned fl = pat_flags(q->pattern);
    size_t u;
    snprintf(buf, len, "n=%llu wg=%d", (unsigned long long)q->n, q->wg);
#define ADD(...) (u = strlen(buf), snprintf(buf + u, len - u, __VA_ARGS__))
    if (fl & PF_SELECTIVITY)
        ADD(" S=%g", q->selectivity);
    if (fl & PF_BINS)
        ADD(" K=%u", q->bins);
    if (fl & PF_HOT && q->hot > 0)
        ADD(" F=%g", q->hot);
    if (fl & PF_ADDRESSES)
        ADD(" P=%u", q->addresses);
    if (q->smem_per_wg)
        ADD(" smem=%u", q->smem_per_wg);
#undef ADD
}

/* In a worker: the simulator, then the model, on one point. */
static void job_run(void *ctx, uint64_t pos, void *result)
{
    job_ctx *j = ctx;
    job_result *r = result;
    const pat_params *p = &j->pts[pos].p;
    atom_stats st;
    r->sim_rc = sim_run(j->cfg, p, &st, r->sim_err);
    r->sim_us = r->sim_rc ? NAN : st.time_us;
    /* The engine fails with 1 both when it runs out of events and when its
     * functional check fails; only the first is a row to count rather than
     * a fault, so the budget is told apart by the engine's message (as
     * export --engine sim does). */
    r->budget = r->sim_rc == 1 && strstr(r->sim_err, "event budget") != NULL;
    r->model_rc = mdl_predict(j->cfg, p, &st, r->model_err);
    r->model_us = r->model_rc ? NAN : st.time_us;
}

/* In the parent, in point order: a fault is reported here, so stderr is
 * the same for any -j. */
static int job_done(void *ctx, uint64_t pos, void *result)
{
    job_ctx *j = ctx;
    const job_result *r = result;
    mvs_point *pt = &j->pts[pos];
    pt->sim_us = r->sim_us;
    pt->model_us = r->model_us;
    pt->status = MVS_SCORED;
    const char *why = NULL;
    if (r->model_rc)
        why = r->model_err;
    else if (r->budget)
        pt->status = MVS_UNFINISHED;
    else if (r->sim_rc)
        why = r->sim_err;
    else if (!(r->sim_us > 0 && isfinite(r->sim_us) && isfinite(r->model_us)))
        why = "a time that is not a finite positive number";
    if (why) {
        pt->status = MVS_FAILED;
        j->fault(j->fault_ctx, pt, r->model_rc ? "model" : "simulator", why);
    }
    return 0;
}

static void job_describe(void *ctx, uint64_t pos, char *buf, size_t len)
{
    job_ctx *j = ctx;
    char d[256];
    mvs_describe(d, sizeof d, &j->pts[pos].p);
    snprintf(buf, len, "%s %s", pat_name(j->pts[pos].p.pattern), d);
}

int mvs_run(const cfg_config *cfg, int jobs, mvs_point *pts, uint64_t count, mvs_fault_fn fault, void *fault_ctx)
{
    job_ctx j = { cfg, pts, fault, fault_ctx };
    /* the messages are `atomsim check --against sim`'s, this module's one caller */
    pool_ops ops = { sizeof(job_result), job_run, job_done, job_describe, "check", "points" };
    return pool_run(&ops, &j, count, jobs, 1);
}

/* ---- scoring ------------------------------------------------------------------------ */

double mvs_error(const mvs_point *p)
{
    return p->model_us / p->sim_us - 1;
}

/* Scores the points of `pattern` (-1: all).  A pattern with no scored row
 * does not meet the goals: nothing shows that it does. */
static void score(const mvs_point *pts, uint64_t n, int pattern, double *buf, mvs_score *s)
{
    memset(s, 0, sizeof *s);
    s->worst = -1;
    for (uint64_t i = 0; i < n; i++) {
        const mvs_point *p = &pts[i];
        if (pattern >= 0 && (int)p->p.pattern != pattern)
            continue;
        s->rows++;
        if (p->status != MVS_SCORED) {
            *(p->status == MVS_FAILED ? &s->failed : &s->unfinished) += 1;
            continue;
        }
        double e = fabs(mvs_error(p));
        buf[s->scored++] = e;
        if (e > s->worst) {
            s->worst = e;
            s->worst_pt = p;
        }
    }
    if (!s->scored) {
        s->median = s->p90 = NAN;
        return;
    }
    gsl_sort(buf, 1, (size_t)s->scored);
    s->median = gsl_stats_quantile_from_sorted_data(buf, 1, (size_t)s->scored, 0.5);
    s->p90 = gsl_stats_quantile_from_sorted_data(buf, 1, (size_t)s->scored, 0.9);
    s->meets = s->median <= MVS_GOAL_MEDIAN && s->p90 <= MVS_GOAL_P90;
}

void mvs_score_all(const mvs_point *pts, uint64_t n, const int *chosen, int nchosen, double *work, mvs_report *rep)
{
    memset(rep, 0, sizeof *rep);
    rep->npatterns = nchosen;
    for (int i = 0; i < nchosen; i++) {
        mvs_score *s = &rep->per[chosen[i]];
        rep->listed[chosen[i]] = 1;
        score(pts, n, chosen[i], work, s);
        rep->missed += !s->meets;
        rep->failed += s->failed;
    }
    score(pts, n, -1, work, &rep->all);
}
