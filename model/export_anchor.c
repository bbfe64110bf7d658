/* export_anchor.c - carries the simulator's accuracy to a table's model
 * cells: where the simulator filled part of a pattern's grid, each model
 * cell takes the model's time scaled by simulator / model at its anchor,
 * the simulator cell nearest to it (docs/dispatch.md, section 6).
 *
 * Why a ratio: the model and the simulator share their mechanisms, so where
 * the model departs from the simulator (the compare-and-swap races,
 * docs/accuracy.md "Model against simulator") it departs alike at nearby
 * shapes; the ratio corrects the model's level and keeps its trend along n,
 * workgroup size and shared memory, which the simulator cannot reach at
 * every cell within its budget.
 *
 * The anchor of cell (n, wg, smem, own axes): the workgroup size nearest
 * in log2 among those with simulator cells, then the shared memory nearest
 * among that size's simulator cells, then the largest n at or below the
 * cell's with a simulator cell of those and the same own axes (ties: the
 * smaller value).  A cell with no anchor keeps the model's time. */
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Six significant digits, as every cell (export.c's round6). */
static double round6(double v)
{
    char buf[40];
    snprintf(buf, sizeof buf, "%.6g", v);
    return strtod(buf, NULL);
}

/* The index of cell idx[] of ep's grid (row-major, the last axis fastest). */
static size_t flat(const exp_pattern *ep, const int *idx)
{
    size_t i = 0;
    for (int a = 0; a < ep->axis_count; a++)
        i = i * (size_t)ep->axes[a].count + (size_t)idx[a];
    return i;
}

static void unflat(const exp_pattern *ep, size_t i, int *idx)
{
    for (int a = ep->axis_count - 1; a >= 0; a--) {
        idx[a] = (int)(i % (size_t)ep->axes[a].count);
        i /= (size_t)ep->axes[a].count;
    }
}

/* Of the indices k of axis `ax` with has[k], the one nearest to value v
 * (in log2 when log2 is set), the smaller on a tie; -1 when none. */
static int nearest(const exp_axis *ax, const unsigned char *has, double v, int log2_scale)
{
    int best = -1;
    double best_d = INFINITY;
    for (int k = 0; k < ax->count; k++) {
        if (!has[k])
            continue;
        double d = log2_scale ? fabs(log2(ax->values[k]) - log2(v)) : fabs(ax->values[k] - v);
        if (d < best_d) {
            best_d = d;
            best = k;
        }
    }
    return best;
}

int exp_anchor_pattern(const cfg_config *gpu, exp_pattern *ep, size_t *anchored, char err[CFG_ERR_MAX])
{
    *anchored = 0;
    /* axes 0, 1, 2 are n, wg and smem_per_wg (exp_axes_of) */
    if (ep->axis_count < 3 || ep->axes[0].kind != EXP_AXIS_N || ep->axes[1].kind != EXP_AXIS_WG ||
        ep->axes[2].kind != EXP_AXIS_SMEM) {
        snprintf(err, CFG_ERR_MAX, "%s: the grid does not start with n, wg, smem_per_wg", pat_name(ep->pattern));
        return -1;
    }
    const exp_axis *wg = &ep->axes[1], *smem = &ep->axes[2];
    unsigned char has_wg[EXP_MAX_VALUES] = { 0 }, has_smem[EXP_MAX_VALUES][EXP_MAX_VALUES] = { { 0 } };
    int idx[EXP_MAX_AXES], any = 0;
    for (size_t i = 0; i < ep->cell_count; i++)
        if (ep->cells[i].source == EXP_SOURCE_SIM) {
            unflat(ep, i, idx);
            has_wg[idx[1]] = 1;
            has_smem[idx[1]][idx[2]] = 1;
            any = 1;
        }
    if (!any)
        return 0;
    /* the ratio of each simulator cell, computed when first used */
    double *ratio = malloc(ep->cell_count * sizeof *ratio);
    if (!ratio) {
        snprintf(err, CFG_ERR_MAX, "out of memory for %zu cells", ep->cell_count);
        return -1;
    }
    for (size_t i = 0; i < ep->cell_count; i++)
        ratio[i] = NAN;
    int rc = 0;
    char why[CFG_ERR_MAX];
    for (size_t i = 0; i < ep->cell_count && rc == 0; i++) {
        exp_cell *c = &ep->cells[i];
        if (c->source != EXP_SOURCE_MODEL)
            continue;
        unflat(ep, i, idx);
        int w = nearest(wg, has_wg, wg->values[idx[1]], 1);
        int s = nearest(smem, has_smem[w], smem->values[idx[2]], 0);
        int a[EXP_MAX_AXES];
        memcpy(a, idx, sizeof a);
        a[1] = w;
        a[2] = s;
        size_t j = 0;
        int found = 0;
        for (a[0] = idx[0]; a[0] >= 0 && !found; a[0]--) {
            j = flat(ep, a);
            found = ep->cells[j].source == EXP_SOURCE_SIM;
        }
        if (!found)
            continue;
        if (isnan(ratio[j])) {
            pat_params p;
            double model_us = 0;
            enum exp_source src;
            exp_cell_point(ep, j, &p);
            if (exp_model_gpu(NULL, gpu, &p, &model_us, &src, why) || !(round6(model_us) > 0)) {
                snprintf(err, CFG_ERR_MAX, "%s n=%llu wg=%d: the anchor's model time: %s", pat_name(ep->pattern),
                         (unsigned long long)p.n, p.wg, round6(model_us) > 0 ? why : "not positive");
                rc = -1;
                break;
            }
            ratio[j] = ep->cells[j].gpu_us / round6(model_us);
        }
        c->gpu_us = round6(c->gpu_us * ratio[j]);
        c->source = EXP_SOURCE_ANCHORED;
        ++*anchored;
    }
    free(ratio);
    return rc;
}
