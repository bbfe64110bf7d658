/* check_formulas.c - `atomsim check`'s checks of the cost formulas
 * (check_formulas.h): a grid small enough to simulate in seconds, both
 * engines on it, each named formula's figure against the simulator's, the
 * composed model against the measured dataset, and the tolerances recorded
 * for each.  The seeds' claims are check_seeds.c's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "../model/model.h"
#include "../sim/engine.h"
#include "../util/pool.h"
#include "check_int.h"

/* ---- the simulator grid -------------------------------------------------- */

static int add_point(chk_point *g, int *n, enum pat_id id, uint64_t count, int wg, double s, uint32_t k, double hot,
                     uint32_t addresses)
{
    if (*n >= CHK_GRID_MAX)
        return -1;
    chk_point *gp = &g[(*n)++];
    memset(gp, 0, sizeof *gp);
    pat_defaults(&gp->p);
    gp->p.pattern = id;
    gp->p.n = count;
    gp->p.wg = wg;
    gp->p.selectivity = s;
    gp->p.bins = k;
    gp->p.hot = hot;
    gp->p.addresses = addresses;
    return 0;
}

/* Small enough to simulate in seconds, wide enough to cross every bound. */
static int build_grid(chk_point *g, int quick)
{
    int n = 0;
    static const double sel[] = { 0.001, 0.01, 0.1, 1 };
    static const enum pat_id by_s[] = { PAT_STORE, PAT_COUNTER, PAT_COUNTER_AGGREGATED, PAT_COMPACTION, PAT_BITMASK };
    for (size_t i = 0; i < sizeof by_s / sizeof by_s[0]; i++)
        for (int e = 14; e <= 17; e += 3)
            for (size_t j = 0; j < 4; j++)
                add_point(g, &n, by_s[i], 1ull << e, 256, sel[j], 256, 0, 1);
    add_point(g, &n, PAT_STORE, 1 << 16, 32, 1, 256, 0, 1);
    add_point(g, &n, PAT_STORE, 32, 32, 1, 256, 0, 1);
    static const uint32_t bins[] = { 1, 2, 4, 16, 256, 4096, 65536 };
    for (size_t j = 0; j < sizeof bins / sizeof bins[0]; j++)
        add_point(g, &n, PAT_HISTOGRAM, 1 << 16, 256, 1, bins[j], 0, 1);
    add_point(g, &n, PAT_HISTOGRAM, 1 << 16, 256, 1, 256, 0.1, 1);
    add_point(g, &n, PAT_HISTOGRAM, 1 << 16, 256, 1, 256, 0.5, 1);
    static const uint32_t sbins[] = { 1, 16, 256, 4096 };
    for (size_t j = 0; j < 4; j++)
        add_point(g, &n, PAT_HISTOGRAM_SHARED, 1 << 16, 256, 1, sbins[j], 0, 1);
    add_point(g, &n, PAT_HISTOGRAM_SHARED, 1 << 16, 64, 1, 256, 0, 1);
    add_point(g, &n, PAT_HISTOGRAM_SHARED, 1 << 16, 1024, 1, 256, 0, 1);
    static const uint32_t cbins[] = { 1, 4, 64, 4096, 65536 };
    for (int u = 0; u < 2; u++)
        for (size_t j = 0; j < 5; j++)
            add_point(g, &n, u ? PAT_HISTOGRAM_U16_CAS : PAT_HISTOGRAM_U8_CAS, quick ? 1 << 10 : 1 << 12, 256, 1,
                      cbins[j], 0, 1);
    static const double csel[] = { 0.01, 0.1, 1 };
    for (size_t j = 0; j < 3; j++)
        add_point(g, &n, PAT_CAS_APPEND, quick ? 1 << 10 : 1 << 12, 256, csel[j], 256, 0, 1);
    if (!quick)
        add_point(g, &n, PAT_CAS_APPEND, 1 << 14, 256, 0.25, 256, 0, 1);
    static const int wgs[] = { 64, 256, 1024 };
    for (size_t j = 0; j < 3; j++)
        add_point(g, &n, PAT_REDUCE, 1 << 18, wgs[j], 1, 256, 0, 1);
    static const uint32_t addr[] = { 1, 2, 8, 64, 4096 };
    for (size_t j = 0; j < 5; j++)
        add_point(g, &n, PAT_DISTINCT_LINES, 1 << 16, 256, 1, 256, 0, addr[j]);
    return n;
}

/* one simulated grid point, as a worker hands it back */
typedef struct grid_sim {
    atom_stats st;
    int rc;
} grid_sim;

typedef struct grid_ctx {
    const cfg_config *cfg;
    chk_point *g;
} grid_ctx;

static void grid_job(void *ctx, uint64_t pos, void *result)
{
    const grid_ctx *c = ctx;
    grid_sim *r = result;
    char err[CFG_ERR_MAX];
    r->rc = sim_run(c->cfg, &c->g[pos].p, &r->st, err);
}

static int grid_done(void *ctx, uint64_t pos, void *result)
{
    grid_ctx *c = ctx;
    const grid_sim *r = result;
    c->g[pos].sim = r->st;
    c->g[pos].sim_rc = r->rc;
    return 0;
}

/* Simulates the grid on the worker pool (util/pool.h), the model in this
 * process. */
static int run_grid(const cfg_config *cfg, chk_point *g, int count, int jobs, char err[CFG_ERR_MAX])
{
    grid_ctx c = { cfg, g };
    const pool_ops ops = { sizeof(grid_sim), grid_job, grid_done, NULL, "check", "points" };
    if (pool_run(&ops, &c, (uint64_t)count, jobs, 1)) {
        snprintf(err, CFG_ERR_MAX, "the worker pool failed (said above)");
        return -1;
    }
    for (int i = 0; i < count; i++)
        g[i].mdl_rc = mdl_predict(cfg, &g[i].p, &g[i].mdl, err);
    return 0;
}

/* ---- results -------------------------------------------------------------- */

chk_result *chk_new_result(chk_report *rep, const char *name, const char *against, const char *metric,
                           double tolerance)
{
    chk_result *r = &rep->results[rep->count < CHK_MAX_RESULTS ? rep->count++ : CHK_MAX_RESULTS - 1];
    memset(r, 0, sizeof *r);
    snprintf(r->name, sizeof r->name, "%s", name);
    snprintf(r->against, sizeof r->against, "%s", against);
    snprintf(r->metric, sizeof r->metric, "%s", metric);
    r->tolerance = tolerance;
    return r;
}

static void describe(char *buf, size_t len, const pat_params *p)
{
    unsigned f = pat_flags(p->pattern);
    int k = snprintf(buf, len, "%s n=%llu", pat_name(p->pattern), (unsigned long long)p->n);
    if (f & PF_SELECTIVITY)
        k += snprintf(buf + k, len - (size_t)k, " S=%g", p->selectivity);
    if (f & PF_BINS)
        k += snprintf(buf + k, len - (size_t)k, " K=%u", p->bins);
    if (f & PF_HOT && p->hot > 0)
        k += snprintf(buf + k, len - (size_t)k, " F=%g", p->hot);
    if (f & PF_ADDRESSES)
        k += snprintf(buf + k, len - (size_t)k, " P=%u", p->addresses);
    if (p->wg != 256)
        snprintf(buf + k, len - (size_t)k, " wg=%d", p->wg);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double chk_median(double *v, int n)
{
    if (n <= 0)
        return NAN;
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Signed relative errors of `pred` against `ref` over the points that pass
 * `use`; fills value (median |error|), within (|error| <= point_tol) and
 * the worst point. */
typedef double (*stat_fn)(const atom_stats *s);
typedef int (*use_fn)(const chk_point *g, enum pat_id only);
static void compare_stat(chk_result *r, const chk_point *g, int count, use_fn use, enum pat_id only, stat_fn f,
                         double point_tol)
{
    double e[CHK_GRID_MAX], worst = -1;
    int m = 0;
    for (int i = 0; i < count; i++) {
        if (g[i].sim_rc || g[i].mdl_rc || !use(&g[i], only))
            continue;
        double ref = f(&g[i].sim), pred = f(&g[i].mdl);
        double err = ref != 0 ? (pred - ref) / fabs(ref) : (pred == 0 ? 0 : 1);
        e[m++] = fabs(err);
        r->points++;
        if (fabs(err) <= point_tol)
            r->within++;
        if (fabs(err) > worst) {
            char d[96];
            worst = fabs(err);
            describe(d, sizeof d, &g[i].p);
            snprintf(r->where, sizeof r->where, "worst %s: %+.0f%% (%.4g vs %.4g)", d, 100 * err, pred, ref);
        }
    }
    r->value = chk_median(e, m);
    r->status = m && r->value <= r->tolerance ? CHK_HOLDS : m ? CHK_DRIFT : CHK_SKIPPED;
}

static double st_time(const atom_stats *s) { return s->time_us; }
static double st_ops(const atom_stats *s) { return s->l2_atomic_ops; }
static double st_requests(const atom_stats *s) { return s->l2_requests; }
static double st_attempts(const atom_stats *s) { return s->cas_attempts; }
static double st_occ(const atom_stats *s) { return s->wg_per_sm; }

/* Which grid points a comparison takes; `only` is use_pattern's pattern. */
static int use_all(const chk_point *g, enum pat_id only) { (void)g, (void)only; return 1; }
static int use_atomic(const chk_point *g, enum pat_id only)
{
    (void)only;
    enum pat_id p = g->p.pattern;
    return p != PAT_STORE && p != PAT_HISTOGRAM_SHARED && p != PAT_REDUCE && !pat_uses_cas(p);
}
static int use_cas(const chk_point *g, enum pat_id only) { (void)only; return pat_uses_cas(g->p.pattern); }
static int use_pattern(const chk_point *g, enum pat_id only) { return g->p.pattern == only; }

/* ---- recorded tolerances ----------------------------------------------------
 * Model against simulator: how far the closed forms may stray from the
 * mechanisms they summarize, per pattern (median absolute relative error
 * over the grid).  Model against measurements: the accuracy measured when
 * the formulas were last fitted (docs/model.md), plus a margin; a change
 * that makes a pattern worse than this is a regression.  The project's goal
 * (median APE <= 20%, Spearman >= 0.9) is reported beside it. */
static const struct pattern_tolerance {
    enum pat_id id;
    double sim_ape;                   /* vs the simulator */
    double data_ape, data_spearman;   /* vs the measured dataset */
} tolerances[PAT_COUNT] = {
    /* recorded 2026-11-22 with configs/h100.ini and validate/data/h100.csv
     * (docs/model.md, "Accuracy"): measured median APE then, plus margin.
     * The CAS patterns sit far off because that config merges no CAS lanes
     * and has no key for a merged CAS lane's cost; see docs/model.md. */
    { PAT_STORE, 0.20, 0.10, 0.85 },
    { PAT_COUNTER, 0.20, 0.10, 0.90 },
    { PAT_COUNTER_AGGREGATED, 0.20, 0.10, 0.90 },
    { PAT_COMPACTION, 0.20, 0.10, 0.90 },
    { PAT_HISTOGRAM, 0.35, 0.20, 0.90 },
    { PAT_HISTOGRAM_SHARED, 0.35, 0.20, 0.80 },
    { PAT_HISTOGRAM_U8_CAS, 0.50, 0.80, 0.90 },
    { PAT_HISTOGRAM_U16_CAS, 0.50, 0.75, 0.90 },
    { PAT_CAS_APPEND, 0.50, 1.40, 0.90 },
    { PAT_BITMASK, 0.20, 0.10, 0.80 },
    { PAT_REDUCE, 0.20, 0.25, 0.85 },
    { PAT_DISTINCT_LINES, 0.20, 0.35, 0.75 },
};

#define GOAL_APE 0.20
#define GOAL_SPEARMAN 0.90

/* ---- formula checks against the simulator ---------------------------------- */

static void check_formulas(chk_report *rep, const chk_point *g, int count)
{
    chk_result *r = chk_new_result(rep, "mdl_occupancy_of", "sim", "median |error| wg/SM", 0);
    compare_stat(r, g, count, use_all, 0, st_occ, 0);

    r = chk_new_result(rep, "mdl_launch_cycles (store n=32)", "sim", "|error|", 0.25);
    for (int i = 0; i < count; i++)
        if (g[i].p.pattern == PAT_STORE && g[i].p.n == 32 && !g[i].sim_rc && !g[i].mdl_rc) {
            r->value = fabs(g[i].mdl.time_us - g[i].sim.time_us) / g[i].sim.time_us;
            r->points = 1;
            r->within = r->value <= r->tolerance;
            snprintf(r->where, sizeof r->where, "%.3g us vs %.3g us", g[i].mdl.time_us, g[i].sim.time_us);
            r->status = r->within ? CHK_HOLDS : CHK_DRIFT;
        }

    r = chk_new_result(rep, "mdl_warp_* L2 ops (merging)", "sim", "median APE", 0.15);
    compare_stat(r, g, count, use_atomic, 0, st_ops, 0.15);
    r = chk_new_result(rep, "mdl_warp_* line requests", "sim", "median APE", 0.15);
    compare_stat(r, g, count, use_atomic, 0, st_requests, 0.15);
    r = chk_new_result(rep, "mdl_cas_attempts (retries)", "sim", "median APE", 0.50);
    compare_stat(r, g, count, use_cas, 0, st_attempts, 0.50);

    for (int id = 0; id < PAT_COUNT; id++) {
        char name[64];
        snprintf(name, sizeof name, "mdl_predict %s", pat_name((enum pat_id)id));
        r = chk_new_result(rep, name, "sim", "median APE", tolerances[id].sim_ape);
        compare_stat(r, g, count, use_pattern, (enum pat_id)id, st_time, tolerances[id].sim_ape);
    }
}

/* ---- the composed model against the measured dataset ---------------------- */

static double spearman(const double *x, const double *y, int n)
{
    double *w = malloc(2 * (size_t)n * sizeof *w);
    if (!w || n < 3) {
        free(w);
        return NAN;
    }
    double r = gsl_stats_spearman(x, 1, y, 1, (size_t)n, w);
    free(w);
    return r;
}

typedef struct row_pred {
    double meas, pred;
    int ok;
} row_pred;

static void check_measured(chk_report *rep, const cfg_config *cfg, const val_dataset *d, row_pred *rp)
{
    char err[CFG_ERR_MAX];
    for (size_t i = 0; i < d->count; i++) {
        atom_stats st;
        rp[i].meas = d->rows[i].time_us_median;
        rp[i].ok = mdl_predict(cfg, &d->rows[i].params, &st, err) == 0;
        rp[i].pred = rp[i].ok ? st.time_us : NAN;
    }
    for (int id = 0; id < PAT_COUNT; id++) {
        double e[1024], x[1024], y[1024], worst = -1;
        int m = 0;
        char name[64], metric[40];
        snprintf(name, sizeof name, "mdl_predict %s", pat_name((enum pat_id)id));
        chk_result *r = chk_new_result(rep, name, "measured", "", tolerances[id].data_ape);
        for (size_t i = 0; i < d->count && m < 1024; i++) {
            if ((int)d->rows[i].params.pattern != id || !rp[i].ok)
                continue;
            double rel = (rp[i].pred - rp[i].meas) / rp[i].meas;
            e[m] = fabs(rel);
            x[m] = rp[i].pred;
            y[m] = rp[i].meas;
            m++;
            r->points++;
            if (fabs(rel) <= GOAL_APE)
                r->within++;
            if (fabs(rel) > worst) {
                char dsc[96];
                worst = fabs(rel);
                describe(dsc, sizeof dsc, &d->rows[i].params);
                snprintf(r->where, sizeof r->where, "worst %s: %+.0f%% (%.4g vs %.4g us)", dsc, 100 * rel, rp[i].pred,
                         rp[i].meas);
            }
        }
        if (!m) {
            r->status = CHK_SKIPPED;
            continue;
        }
        double rho = spearman(x, y, m);
        r->value = chk_median(e, m);
        snprintf(metric, sizeof metric, "APE %.1f%% rho %.3f %s", 100 * r->value, rho,
                 r->value <= GOAL_APE && !(rho < GOAL_SPEARMAN) ? "goal met" : "goal missed");
        snprintf(r->metric, sizeof r->metric, "%s", metric);
        int ok = r->value <= tolerances[id].data_ape && (isnan(rho) || rho >= tolerances[id].data_spearman);
        r->status = ok ? CHK_HOLDS : CHK_DRIFT;
    }
}

/* ---- all of them --------------------------------------------------------------- */

int chk_run(const chk_inputs *in, chk_report *rep, char err[CFG_ERR_MAX])
{
    chk_point *grid = NULL;
    int count = 0;
    memset(rep, 0, sizeof *rep);
    if (in->sim) {
        cfg_config sim_cfg = *in->cfg;
        if (sim_cfg.sim.max_events > 5e7)
            sim_cfg.sim.max_events = 5e7; /* every grid point finishes in seconds */
        grid = calloc(CHK_GRID_MAX, sizeof *grid);
        if (!grid) {
            snprintf(err, CFG_ERR_MAX, "out of memory");
            return -1;
        }
        count = build_grid(grid, in->quick);
        if (run_grid(&sim_cfg, grid, count, in->jobs, err)) {
            free(grid);
            return -1;
        }
        check_formulas(rep, grid, count);
    }
    if (in->data) {
        row_pred *rp = calloc(in->data->count, sizeof *rp);
        if (!rp) {
            free(grid);
            snprintf(err, CFG_ERR_MAX, "out of memory");
            return -1;
        }
        check_measured(rep, in->cfg, in->data, rp);
        free(rp);
    }
    chk_seeds(rep, in->cfg, in->cpu, grid, count, in->data);
    free(grid);
    rep->grid_points = count;
    for (int i = 0; i < rep->count; i++)
        rep->drifted += rep->results[i].status == CHK_DRIFT;
    return 0;
}

const char *chk_status_name(enum chk_status s)
{
    static const char *const names[] = { "holds", "DRIFT", "seed holds", "seed fails", "skipped" };
    return names[s];
}
