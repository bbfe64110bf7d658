/* calibrate.c - one calibration stage: its objective over the rows it
 * fits, and the derivative-free search that lowers it (see calibrate.h). */
#include "calibrate.h"

#include <gsl/gsl_multimin.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/progress.h"

#define NOT_RUN_PENALTY 1.0 /* a row that does not finish: as if a factor e off */

void cal_options_default(cal_options *o)
{
    o->jobs = 1;
    o->max_evals = 14;
    o->span = 2.5;
    o->engine = NULL;
    o->model_engine = NULL;
    o->log = NULL;
}

int cal_key_lookup(const char *name, const cfg_option **opt, char err[CFG_ERR_MAX])
{
    char sec[CFG_NAME_MAX];
    const char *dot = strchr(name, '.');
    if (!dot || dot == name || (size_t)(dot - name) >= sizeof sec || !dot[1]) {
        snprintf(err, CFG_ERR_MAX, "'%s' is not section.key", name);
        return -1;
    }
    memcpy(sec, name, (size_t)(dot - name));
    sec[dot - name] = 0;
    const cfg_option *o = cfg_find(sec, dot + 1);
    if (!o) {
        snprintf(err, CFG_ERR_MAX, "unknown key '%s'", name);
        return -1;
    }
    if (!cfg_is_calibratable(o)) {
        snprintf(err, CFG_ERR_MAX, "key '%s' is not calibratable (see atomsim config)", name);
        return -1;
    }
    *opt = o;
    return 0;
}

double cal_get(const cfg_config *cfg, const cfg_option *opt)
{
    const char *base = (const char *)cfg + opt->offset;
    if (opt->type == CFG_DOUBLE)
        return *(const double *)base;
    return *(const int *)base;
}

int cal_set(cfg_config *cfg, const cfg_option *opt, double v, char err[CFG_ERR_MAX])
{
    char text[64];
    if (opt->type == CFG_DOUBLE)
        snprintf(text, sizeof text, "%.4g", v);
    else if (opt->type == CFG_ENUM)
        snprintf(text, sizeof text, "%s", opt->enum_names[(int)lround(v)]);
    else
        snprintf(text, sizeof text, "%ld", lround(v));
    return cfg_set(cfg, opt, text, err) ? -1 : 0;
}

size_t cal_stage_rows(const cal_stage *st, const val_dataset *d, const unsigned char *keep, unsigned char *out)
{
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++) {
        out[i] = (unsigned char)((!keep || keep[i]) && st->filter(&d->rows[i].params));
        n += out[i];
    }
    return n;
}

int cal_objective(const cfg_config *cfg, const val_dataset *d, unsigned char *mask, const cal_options *o, double *obj,
                  double *ape, int drop_not_run, char err[CFG_ERR_MAX])
{
    val_dataset sub = *d;
    size_t n = 0;
    for (size_t i = 0; i < d->count; i++)
        n += mask[i] != 0;
    sub.rows = malloc((n ? n : 1) * sizeof *sub.rows);
    val_prediction *pr = calloc(n ? n : 1, sizeof *pr);
    double *apes = malloc((n ? n : 1) * sizeof *apes);
    if (!sub.rows || !pr || !apes) {
        free(sub.rows);
        free(pr);
        free(apes);
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    sub.count = 0;
    for (size_t i = 0; i < d->count; i++)
        if (mask[i])
            sub.rows[sub.count++] = d->rows[i];
    int rc = val_predict_all(cfg, &sub, o->engine, o->jobs, pr, err);
    double sum = 0;
    size_t ran = 0, n_all = n;
    if (!rc && drop_not_run)
        for (size_t i = 0, k = 0; i < d->count; i++)
            if (mask[i] && pr[k++].status != VAL_OK)
                mask[i] = 0;
    for (size_t i = 0; !rc && i < n; i++) {
        if (pr[i].status != VAL_OK) {
            if (!drop_not_run)
                sum += NOT_RUN_PENALTY;
            continue;
        }
        sum += fabs(log(pr[i].time_us / sub.rows[i].time_us_median));
        apes[ran++] = pr[i].ape;
    }
    if (!rc) {
        size_t counted = drop_not_run ? ran : n_all;
        *obj = counted ? sum / (double)counted : 0;
        if (ape) {
            gsl_sort(apes, 1, ran);
            *ape = ran ? gsl_stats_median_from_sorted_data(apes, 1, ran) : NAN;
        }
    }
    free(sub.rows);
    free(pr);
    free(apes);
    return rc ? -1 : 0;
}

/* The search state shared by the line search, the candidate list and the
 * simplex's callback: evaluates a point, remembers the best one. */
typedef struct search {
    cfg_config *cfg;
    const cfg_option *const *opts;
    int nopts;
    const val_dataset *d;
    unsigned char *mask;
    const cal_options *o;
    int evals, failed;
    double best_obj, best_x[CAL_MAX_STAGE_KEYS];
    double min_gain;          /* objective gain a move must beat */
    char *err;
} search;

/* Values as the overlay will hold them (4 significant digits, integers
 * rounded) so that the objective seen is the one the file reproduces. */
static double snap(const cfg_option *opt, double v)
{
    if (v < opt->min)
        v = opt->min;
    if (v > opt->max)
        v = opt->max;
    if (opt->type != CFG_DOUBLE)
        return (double)lround(v);
    char text[64];
    snprintf(text, sizeof text, "%.4g", v);
    return strtod(text, NULL);
}

/* Run-to-run noise of one measured row, as mean |log| between the H100
 * dataset and its 40-row repeat on another day (validate/data/raw/
 * h100-repeat.csv: 0.0101).  The objective is a mean over a stage's rows, so
 * its noise is this over sqrt(rows); smaller gains are not evidence. */
#define CAL_ROW_NOISE 0.01

static double evaluate(search *s, const double *x)
{
    double xs[CAL_MAX_STAGE_KEYS], obj = INFINITY;
    if (s->failed)
        return INFINITY;
    for (int k = 0; k < s->nopts; k++) {
        xs[k] = snap(s->opts[k], x[k]);
        if (cal_set(s->cfg, s->opts[k], xs[k], s->err)) {
            s->failed = 1;
            return INFINITY;
        }
    }
    if (cal_objective(s->cfg, s->d, s->mask, s->o, &obj, NULL, 0, s->err)) {
        s->failed = 1;
        return INFINITY;
    }
    s->evals++;
    if (s->o->log) {
        if (s->o->log == stdout)
            prog_stdout(); /* the line and the log share a terminal */
        fprintf(s->o->log, "  eval %2d:", s->evals);
        for (int k = 0; k < s->nopts; k++)
            fprintf(s->o->log, " %s.%s=%g", s->opts[k]->section, s->opts[k]->key, xs[k]);
        fprintf(s->o->log, " -> %.5f\n", obj);
        fflush(s->o->log);
    }
    /* a move must beat the best by more than measurement noise can: on a
     * flat objective (a key that another mechanism's bound hides, such as
     * same_address_cycles under the pass floor) the start value stays */
    if (obj < s->best_obj - s->min_gain) {
        s->best_obj = obj;
        memcpy(s->best_x, xs, sizeof xs);
    }
    return obj;
}

static void search_candidates(search *s, const int *cand)
{
    int gen[16], n = 0;
    const cfg_option *opt = s->opts[0];
    double x0 = s->best_x[0];
    if (!cand) {
        if (opt->max - opt->min <= 8)
            for (double v = opt->min; v <= opt->max; v++)
                gen[n++] = (int)v;
        else {
            gen[n++] = (int)lround(x0 / 2);
            gen[n++] = (int)lround(x0) - 1;
            gen[n++] = (int)lround(x0) + 1;
            gen[n++] = (int)lround(x0 * 2);
        }
        gen[n] = -1;
        cand = gen;
    }
    for (int i = 0; (cand == gen ? i < n : cand[i] >= 0) && !s->failed; i++) {
        double v = cand[i];
        if (v == x0 || v < opt->min || v > opt->max)
            continue;
        evaluate(s, &v);
    }
}

static double line_point(const search *s, double u) { return s->opts[0]->type == CFG_DOUBLE ? exp(u) : u; }

/* Golden-section search over log(x) in [x0/span, x0*span], or over the
 * stage's own range when it has one. */
static void search_line(search *s, const double range[2])
{
    const cfg_option *opt = s->opts[0];
    double x0 = s->best_x[0];
    if (x0 <= 0)
        x0 = opt->min > 0 ? opt->min : 1;
    double lo = log(fmax(x0 / s->o->span, opt->min > 0 ? opt->min : 1e-9));
    double hi = log(fmin(x0 * s->o->span, opt->max));
    if (range[1] > range[0] && range[0] > 0) {
        lo = log(range[0]);
        hi = log(range[1]);
    }
    const double g = (sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double xa = line_point(s, a), xb = line_point(s, b);
    double fa = evaluate(s, &xa), fb = evaluate(s, &xb);
    while (s->evals < s->o->max_evals && !s->failed) {
        if (fa < fb) {
            hi = b, b = a, fb = fa;
            a = hi - g * (hi - lo);
            xa = line_point(s, a);
            fa = evaluate(s, &xa);
        } else {
            lo = a, a = b, fa = fb;
            b = lo + g * (hi - lo);
            xb = line_point(s, b);
            fb = evaluate(s, &xb);
        }
    }
}

static double simplex_f(const gsl_vector *v, void *params)
{
    search *s = params;
    double x[CAL_MAX_STAGE_KEYS];
    for (int k = 0; k < s->nopts; k++)
        x[k] = exp(gsl_vector_get(v, (size_t)k));
    return evaluate(s, x);
}

/* Nelder-Mead (GSL nmsimplex2) over the logs of several real keys. */
static void search_simplex(search *s)
{
    size_t n = (size_t)s->nopts;
    gsl_vector *x = gsl_vector_alloc(n), *step = gsl_vector_alloc(n);
    gsl_multimin_fminimizer *m = gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, n);
    if (!x || !step || !m) {
        s->failed = 1;
        snprintf(s->err, CFG_ERR_MAX, "out of memory");
        goto out;
    }
    for (size_t k = 0; k < n; k++) {
        double x0 = s->best_x[k] > 0 ? s->best_x[k] : (s->opts[k]->min > 0 ? s->opts[k]->min : 0.1);
        gsl_vector_set(x, k, log(x0));
        gsl_vector_set(step, k, log(s->o->span) / 2);
    }
    gsl_multimin_function f = { simplex_f, n, s };
    gsl_multimin_fminimizer_set(m, &f, x, step);
    while (s->evals < s->o->max_evals && !s->failed) {
        if (gsl_multimin_fminimizer_iterate(m))
            break;
        if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(m), 0.02) == GSL_SUCCESS)
            break;
    }
out:
    gsl_multimin_fminimizer_free(m);
    gsl_vector_free(x);
    gsl_vector_free(step);
}

int cal_fit_stage(cfg_config *cfg, const cal_stage *st, const cfg_option *const *opts, int nopts, const val_dataset *d,
                  const unsigned char *fit_mask, const cal_options *o, cal_stage_result *res, char err[CFG_ERR_MAX])
{
    /* a stage of the model's own keys predicts with the model */
    cal_options mine = *o;
    if (st->model)
        mine.engine = o->model_engine;
    o = &mine;
    if (!o->engine) {
        snprintf(err, CFG_ERR_MAX, "stage %s: no %s engine to predict with", st->name, st->model ? "model" : "simulator");
        return -1;
    }
    memset(res, 0, sizeof *res);
    res->stage = st;
    res->nkeys = nopts;
    if (nopts < 1 || nopts > CAL_MAX_STAGE_KEYS) {
        snprintf(err, CFG_ERR_MAX, "stage %s: %d keys to fit", st->name, nopts);
        return -1;
    }
    for (int k = 0; k < nopts; k++) {
        res->keys[k].opt = opts[k];
        res->keys[k].before = res->keys[k].after = cal_get(cfg, opts[k]);
        if (nopts > 1 && opts[k]->type != CFG_DOUBLE) {
            snprintf(err, CFG_ERR_MAX, "stage %s: integer key %s.%s must be fitted alone", st->name, opts[k]->section,
                     opts[k]->key);
            return -1;
        }
    }
    unsigned char *mask = malloc(d->count ? d->count : 1);
    if (!mask) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    res->rows = (int)cal_stage_rows(st, d, fit_mask, mask);
    if (!res->rows) {
        free(mask);
        return 1;
    }
    /* a stage whose rows the run's budget would mostly censor gets its own */
    double budget = cfg->sim.max_events;
    if (st->min_events > budget)
        cfg->sim.max_events = st->min_events;
    res->max_events = cfg->sim.max_events;
    int rc = -1;
    if (cal_objective(cfg, d, mask, o, &res->obj_before, &res->ape_before, 1, err))
        goto out;
    res->rows = 0;
    for (size_t i = 0; i < d->count; i++)
        res->rows += mask[i];
    if (!res->rows) {
        rc = 1;
        goto out;
    }
    search s = { cfg, opts, nopts, d, mask, o, 0, 0, res->obj_before, { 0 }, CAL_ROW_NOISE / sqrt(res->rows), err };
    for (int k = 0; k < nopts; k++)
        s.best_x[k] = res->keys[k].before;
    if (o->log) {
        if (o->log == stdout)
            prog_stdout();
        fprintf(o->log, "stage %s: %d rows (%s, --max-events %g), objective %.5f, median error %.1f%%\n", st->name,
                res->rows, st->rows, res->max_events, res->obj_before, 100 * res->ape_before);
        fflush(o->log);
    }
    if (opts[0]->type != CFG_DOUBLE)
        search_candidates(&s, st->candidates);
    else if (nopts == 1)
        search_line(&s, st->range);
    else
        search_simplex(&s);
    if (s.failed)
        goto out;
    res->evals = s.evals;
    /* keep the best point seen (the start unless something beat it) */
    for (int k = 0; k < nopts; k++) {
        if (cal_set(cfg, opts[k], s.best_x[k], err))
            goto out;
        res->keys[k].after = s.best_x[k];
    }
    if (cal_objective(cfg, d, mask, o, &res->obj_after, &res->ape_after, 0, err))
        goto out;
    rc = 0;
out:
    cfg->sim.max_events = budget;
    free(mask);
    return rc;
}
