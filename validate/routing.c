/* routing.c - a dispatcher's misroutes and regret on a measured truth set
 * (see routing.h). */
#include "routing.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../model/dispatch_query.h"

static int same_config(const pat_params *a, const pat_params *b)
{
    return a->pattern == b->pattern && a->n == b->n && a->wg == b->wg && a->selectivity == b->selectivity &&
           a->bins == b->bins && a->hot == b->hot && a->addresses == b->addresses && a->smem_per_wg == b->smem_per_wg;
}

static const val_row *find(const val_dataset *d, const pat_params *p)
{
    for (size_t i = 0; i < d->count; i++)
        if (same_config(&d->rows[i].params, p))
            return &d->rows[i];
    return NULL;
}

static void quantiles(double *v, size_t n, double *median, double *p90)
{
    if (!n) {
        *median = *p90 = NAN;
        return;
    }
    gsl_sort(v, 1, n);
    *median = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.5);
    *p90 = gsl_stats_quantile_from_sorted_data(v, 1, n, 0.9);
}

int val_route_score(const tbl_table *t, const val_dataset *gpu, const val_dataset *cpu, enum dsp_data_on data_on,
                    val_route_stats *st, val_route_row **rows_out, char err[CFG_ERR_MAX])
{
    memset(st, 0, sizeof *st);
    size_t cap = gpu->count ? gpu->count : 1;
    val_route_row *rows = calloc(cap, sizeof *rows);
    double *gape = malloc(cap * sizeof *gape), *cape = malloc(cap * sizeof *cape);
    double chosen[2] = { 0, 0 }, best = 0, clear_chosen = 0, clear_best = 0;
    if (!rows || !gape || !cape) {
        free(rows);
        free(gape);
        free(cape);
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < cpu->count; i++)
        st->cpu_only += !find(gpu, &cpu->rows[i].params);
    for (size_t i = 0; i < gpu->count; i++) {
        const val_row *g = &gpu->rows[i], *c = find(cpu, &g->params);
        if (!c) {
            st->gpu_only++;
            continue;
        }
        val_route_row *r = &rows[st->rows];
        const pat_params *p = &g->params;
        tbl_query q;
        char why[CFG_ERR_MAX];
        dq_query(p, DSP_RULE_COST, (int)data_on, 0, &q);
        if (tbl_lookup(t, &q, &r->cost, why)) {
            st->outside++;
            continue;
        }
        q.rule = DSP_RULE_SEED;
        tbl_lookup(t, &q, &r->seed, why);
        r->params = *p;
        r->gpu_us = g->time_us_median;
        r->cpu_us = c->time_us_median;
        double fast = fmin(r->gpu_us, r->cpu_us), cost_took = 0;
        best += fast;
        st->gpu_faster += r->gpu_us < r->cpu_us;
        for (int rule = 0; rule < 2; rule++) {
            enum dsp_target side = rule == DSP_RULE_COST ? r->cost.d.target : r->seed.d.target;
            double took = side == DSP_GPU ? r->gpu_us : r->cpu_us;
            chosen[rule] += took;
            if (rule == DSP_RULE_COST)
                cost_took = took;
            r->misroute[rule] = took > (1 + VAL_ROUTE_SLACK) * fast;
            st->misroutes[rule] += (size_t)r->misroute[rule];
        }
        gape[st->rows] = fabs(r->cost.gpu_kernel_us / r->gpu_us - 1);
        cape[st->rows] = fabs(r->cost.cpu_compute_us / r->cpu_us - 1);
        /* a band scales one part of the answer: the kernel, the CPU's compute */
        const tbl_answer *a = &r->cost;
        double fixed[EXP_SIDES] = { a->gpu_us - a->gpu_kernel_us, a->cpu_us - a->cpu_compute_us };
        double lo[EXP_SIDES] = { a->gpu_lo_us, a->cpu_lo_us }, hi[EXP_SIDES] = { a->gpu_hi_us, a->cpu_hi_us };
        double measured[EXP_SIDES] = { r->gpu_us, r->cpu_us };
        int banded[EXP_SIDES] = { a->band_rows, a->cpu_band_rows };
        st->close_calls += (size_t)a->close_call;
        st->close_misroutes += (size_t)(a->close_call && r->misroute[DSP_RULE_COST]);
        if (!a->close_call) {
            clear_chosen += cost_took;
            clear_best += fast;
        }
        for (int s = 0; s < EXP_SIDES; s++) {
            r->part_lo_us[s] = lo[s] - fixed[s];
            r->part_hi_us[s] = hi[s] - fixed[s];
            if (banded[s]) {
                st->banded[s]++;
                st->band_below[s] += measured[s] < r->part_lo_us[s];
                st->band_above[s] += measured[s] > r->part_hi_us[s];
            }
        }
        st->rows++;
    }
    for (int rule = 0; rule < 2; rule++)
        st->regret[rule] = best > 0 ? chosen[rule] / best - 1 : NAN;
    st->clear_regret = clear_best > 0 ? clear_chosen / clear_best - 1 : NAN;
    quantiles(gape, st->rows, &st->gpu_median_ape, &st->gpu_p90_ape);
    quantiles(cape, st->rows, &st->cpu_median_ape, &st->cpu_p90_ape);
    free(gape);
    free(cape);
    if (rows_out)
        *rows_out = rows;
    else
        free(rows);
    return 0;
}
