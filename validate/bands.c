/* bands.c - per-pattern, per-region quantiles of measured / answered over
 * a measured dataset (see bands.h). */
#include "bands.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>

#include "../model/dispatch_query.h"

static const double region_edges[EXP_MAX_BANDS + 1] = { 1, 65536, 1048576, 16777216, 1.0 * (1ull << 40) };

int val_bands(const tbl_table *t, const val_dataset *d, enum pat_id id, enum exp_side side, exp_band *bands,
              int *count, char err[CFG_ERR_MAX])
{
    double *ratio = malloc((d->count ? d->count : 1) * sizeof *ratio);
    if (!ratio) {
        snprintf(err, CFG_ERR_MAX, "out of memory for %zu rows", d->count);
        return -1;
    }
    *count = 0;
    for (int r = 0; r < EXP_MAX_BANDS; r++) {
        size_t n = 0;
        for (size_t i = 0; i < d->count; i++) {
            const val_row *row = &d->rows[i];
            double rn = (double)row->params.n;
            if (row->params.pattern != id || rn < region_edges[r] || rn >= region_edges[r + 1])
                continue;
            tbl_query q;
            tbl_answer a;
            char why[CFG_ERR_MAX];
            dq_query(&row->params, -1, -1, 0, &q);
            if (side == EXP_SIDE_CPU) {
                /* cpubench echoes a row's shape, which the CPU ignores: a
                 * workgroup that would not fit an SM still has a CPU time */
                q.wg = 256;
                q.smem_per_wg = 0;
            }
            double answered = 0;
            if (tbl_lookup(t, &q, &a, why) == 0)
                answered = side == EXP_SIDE_CPU ? a.cpu_compute_us : a.gpu_kernel_us;
            if (!(answered > 0))
                continue; /* outside the grid: the table gives no answer to hold */
            ratio[n++] = row->time_us_median / answered;
        }
        if (n < VAL_BAND_MIN_ROWS)
            continue;
        gsl_sort(ratio, 1, n);
        exp_band *b = &bands[(*count)++];
        b->n_lo = region_edges[r];
        b->n_hi = region_edges[r + 1];
        b->rows = (int)n;
        b->p10 = gsl_stats_quantile_from_sorted_data(ratio, 1, n, 0.10);
        b->p50 = gsl_stats_quantile_from_sorted_data(ratio, 1, n, 0.50);
        b->p90 = gsl_stats_quantile_from_sorted_data(ratio, 1, n, 0.90);
    }
    free(ratio);
    return 0;
}
