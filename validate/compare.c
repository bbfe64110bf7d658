/* compare.c - runs an engine over a dataset in parallel worker processes
 * (fork: the engine is single-threaded and keeps no global state) and
 * reduces the errors with GSL's statistics. */
#include "compare.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/pool.h"

static void predict_row(const cfg_config *cfg, const val_row *r, val_engine_fn fn, val_prediction *out)
{
    atom_stats st;
    char err[CFG_ERR_MAX];
    memset(out, 0, sizeof *out);
    int rc = fn(cfg, &r->params, &st, err);
    if (rc) {
        out->status = rc == 2 ? VAL_BAD_INPUT : VAL_FAILED;
        snprintf(out->err, sizeof out->err, "%s", err);
        out->time_us = NAN;
        out->ape = NAN;
        return;
    }
    out->time_us = st.time_us;
    out->ape = fabs(st.time_us - r->time_us_median) / r->time_us_median;
    out->cas_attempts = st.cas_attempts;
}

size_t val_select(const val_dataset *d, const char *only, const val_split *split, int rows, unsigned char *keep)
{
    size_t kept = 0;
    for (size_t i = 0; i < d->count; i++) {
        const char *name = pat_name(d->rows[i].params.pattern);
        int k = 1;
        if (only) {
            k = 0;
            size_t len = strlen(name);
            for (const char *p = only; (p = strstr(p, name)); p += len)
                if ((p == only || p[-1] == ',') && (p[len] == 0 || p[len] == ','))
                    k = 1;
        }
        if (split && rows != VAL_ROWS_ALL && val_split_side(split, &d->rows[i].params) != (enum val_rows)rows)
            k = 0;
        keep[i] = (unsigned char)k;
        kept += (size_t)k;
    }
    return kept;
}

int val_predict_kept(const cfg_config *cfg, const val_dataset *d, const unsigned char *keep, val_engine_fn fn, int jobs,
                     val_prediction *out, char err[CFG_ERR_MAX])
{
    /* compact, run, scatter back: the workers see only the kept rows */
    size_t kept = 0;
    for (size_t i = 0; i < d->count; i++)
        kept += keep[i] != 0;
    val_dataset sub = *d;
    sub.rows = malloc((kept ? kept : 1) * sizeof *sub.rows);
    val_prediction *spr = calloc(kept ? kept : 1, sizeof *spr);
    if (!sub.rows || !spr) {
        free(sub.rows);
        free(spr);
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    sub.count = 0;
    for (size_t i = 0; i < d->count; i++)
        if (keep[i])
            sub.rows[sub.count++] = d->rows[i];
    int rc = val_predict_all(cfg, &sub, fn, jobs, spr, err);
    for (size_t i = 0, k = 0; rc == 0 && i < d->count; i++)
        if (keep[i])
            out[i] = spr[k++];
    free(sub.rows);
    free(spr);
    return rc ? -1 : 0;
}

/* the pool's view of one prediction run */
typedef struct predict_ctx {
    const cfg_config *cfg;
    const val_dataset *d;
    val_engine_fn fn;
    val_prediction *out;
} predict_ctx;

static void predict_job(void *ctx, uint64_t pos, void *result)
{
    const predict_ctx *c = ctx;
    predict_row(c->cfg, &c->d->rows[pos], c->fn, result);
}

static int predict_done(void *ctx, uint64_t pos, void *result)
{
    predict_ctx *c = ctx;
    c->out[pos] = *(const val_prediction *)result;
    return 0;
}

static void predict_describe(void *ctx, uint64_t pos, char *buf, size_t len)
{
    const predict_ctx *c = ctx;
    const val_row *r = &c->d->rows[pos];
    snprintf(buf, len, "line %d (%s)", r->line, pat_name(r->params.pattern));
}

int val_predict_all(const cfg_config *cfg, const val_dataset *d, val_engine_fn fn, int jobs, val_prediction *out,
                    char err[CFG_ERR_MAX])
{
    predict_ctx c = { cfg, d, fn, out };
    const pool_ops ops = { sizeof(val_prediction), predict_job, predict_done, predict_describe, "validate", "rows" };
    if (pool_run(&ops, &c, d->count, jobs, 1)) {
        snprintf(err, CFG_ERR_MAX, "the worker pool failed (said above)");
        return -1;
    }
    return 0;
}

/* Ranks 1..n of v into r, runs within tie_frac of their first sharing
 * their mean rank; with `also`, each run's entries of `also` are replaced
 * by their mean as well. */
static void tied_ranks(const double *v, size_t n, double tie_frac, double *r, size_t *idx, double *also)
{
    gsl_sort_index(idx, v, 1, n);
    for (size_t a = 0; a < n;) {
        size_t b = a + 1;
        while (b < n && v[idx[b]] <= v[idx[a]] * (1 + tie_frac))
            b++;
        double mean = 0.5 * (double)(a + 1 + b); /* of ranks a+1..b */
        double also_mean = 0;
        for (size_t k = a; k < b; k++) {
            r[idx[k]] = mean;
            if (also)
                also_mean += also[idx[k]] / (double)(b - a);
        }
        for (size_t k = a; also && k < b; k++)
            also[idx[k]] = also_mean;
        a = b;
    }
}

double val_spearman_tied(const double *x, const double *y, size_t n, double tie_frac, double *work, size_t *idx)
{
    if (n < 2)
        return NAN;
    double *rx = work, *ry = work + n;
    tied_ranks(y, n, 0, ry, idx, NULL);
    tied_ranks(x, n, tie_frac, rx, idx, ry); /* y's order inside x's ties is not scored */
    double mx = gsl_stats_mean(rx, 1, n), my = gsl_stats_mean(ry, 1, n), sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; i++) {
        sxy += (rx[i] - mx) * (ry[i] - my);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (ry[i] - my) * (ry[i] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

void val_summarize(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, int pattern,
                   double tie_frac, val_summary *s)
{
    memset(s, 0, sizeof *s);
    s->spearman = NAN;
    s->spearman_tied = NAN;
    double *ape = malloc(d->count * sizeof *ape);
    double *meas = malloc(d->count * sizeof *meas);
    double *pred = malloc(d->count * sizeof *pred);
    double *work = malloc(2 * d->count * sizeof *work); /* two rank vectors */
    size_t *idx = malloc(d->count * sizeof *idx);
    if (!ape || !meas || !pred || !work || !idx)
        goto out;
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < d->count; i++) {
        if ((keep && !keep[i]) || (pattern >= 0 && (int)d->rows[i].params.pattern != pattern))
            continue;
        s->rows++;
        if (pr[i].status != VAL_OK)
            continue;
        ape[s->ran] = pr[i].ape;
        meas[s->ran] = d->rows[i].time_us_median;
        pred[s->ran] = pr[i].time_us;
        if (meas[s->ran] < lo)
            lo = meas[s->ran];
        if (meas[s->ran] > hi)
            hi = meas[s->ran];
        s->ran++;
    }
    if (s->ran) {
        size_t n = (size_t)s->ran;
        s->span = hi / lo;
        if (s->span > 2.0 && n >= 3) {
            s->spearman = gsl_stats_spearman(meas, 1, pred, 1, n, work);
            if (tie_frac > 0)
                s->spearman_tied = val_spearman_tied(meas, pred, n, tie_frac, work, idx);
        }
        gsl_sort(ape, 1, n);
        s->ape_median = gsl_stats_median_from_sorted_data(ape, 1, n);
        s->ape_p90 = gsl_stats_quantile_from_sorted_data(ape, 1, n, 0.9);
    }
out:
    free(ape);
    free(meas);
    free(pred);
    free(work);
    free(idx);
}

int val_axis_from_name(const char *name)
{
    static const char *const names[] = { "pattern", "wg", "smem", "n" };
    for (int a = 0; a < 4; a++)
        if (!strcmp(name, names[a]))
            return a;
    return -1;
}

const char *val_axis_column(enum val_axis a)
{
    /* the parameters' columns are the parameter table's */
    static const enum pat_param_id param[] = { [VAL_BY_WG] = PP_WG, [VAL_BY_SMEM] = PP_SMEM_PER_WG, [VAL_BY_N] = PP_N };
    return a == VAL_BY_PATTERN ? "pattern" : pat_param_get(param[a])->csv;
}

static const char *const wg_labels[] = { "32-64", "65-128", "129-256", "257-640", "641-1024" };
static const char *const smem_labels[] = { "0-8KiB", "8-32KiB", "32-48KiB" };
static const char *const n_labels[] = { "<=2^18", "<=2^21", ">2^21" };

int val_regions(enum val_axis a)
{
    switch (a) {
    case VAL_BY_WG:
        return 5;
    case VAL_BY_SMEM:
    case VAL_BY_N:
        return 3;
    default:
        return PAT_COUNT;
    }
}

int val_region_of(enum val_axis a, const pat_params *p)
{
    switch (a) {
    case VAL_BY_WG:
        return p->wg <= 64 ? 0 : p->wg <= 128 ? 1 : p->wg <= 256 ? 2 : p->wg <= 640 ? 3 : 4;
    case VAL_BY_SMEM: {
        uint32_t b = pat_smem_bytes(p);
        return b <= 8192 ? 0 : b <= 32768 ? 1 : 2;
    }
    case VAL_BY_N:
        return p->n <= (1ull << 18) ? 0 : p->n <= (1ull << 21) ? 1 : 2;
    default:
        return (int)p->pattern;
    }
}

const char *val_region_label(enum val_axis a, int r)
{
    switch (a) {
    case VAL_BY_WG:
        return wg_labels[r];
    case VAL_BY_SMEM:
        return smem_labels[r];
    case VAL_BY_N:
        return n_labels[r];
    default:
        return pat_name((enum pat_id)r);
    }
}

void val_summarize_region(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, enum val_axis a,
                          int r, double tie_frac, val_summary *s)
{
    if (r < 0 || a == VAL_BY_PATTERN) {
        val_summarize(d, pr, keep, r, tie_frac, s);
        return;
    }
    unsigned char *in = malloc(d->count ? d->count : 1);
    if (!in) {
        memset(s, 0, sizeof *s);
        s->spearman = s->spearman_tied = NAN;
        return;
    }
    for (size_t i = 0; i < d->count; i++)
        in[i] = (unsigned char)((!keep || keep[i]) && val_region_of(a, &d->rows[i].params) == r);
    val_summarize(d, pr, in, -1, tie_frac, s);
    free(in);
}

void val_summarize_cas(const val_dataset *d, const val_prediction *pr, const unsigned char *keep, int pattern,
                       val_cas_summary *s)
{
    memset(s, 0, sizeof *s);
    s->ratio_median = s->ratio_min = s->ratio_max = NAN;
    double *ratio = malloc((d->count ? d->count : 1) * sizeof *ratio);
    if (!ratio)
        return;
    for (size_t i = 0; i < d->count; i++) {
        const val_row *r = &d->rows[i];
        if ((keep && !keep[i]) || (pattern >= 0 && (int)r->params.pattern != pattern))
            continue;
        if (pr[i].status != VAL_OK || !(r->cas_attempts > 0))
            continue;
        ratio[s->rows++] = pr[i].cas_attempts / r->cas_attempts;
    }
    if (s->rows) {
        gsl_sort(ratio, 1, (size_t)s->rows);
        s->ratio_median = gsl_stats_median_from_sorted_data(ratio, 1, (size_t)s->rows);
        s->ratio_min = ratio[0];
        s->ratio_max = ratio[s->rows - 1];
    }
    free(ratio);
}
