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
 * in log2 among those with simulator cells (ties: the smaller); at it, for
 * each shared-memory value with simulator cells, the cell at the largest n
 * at or below the cell's with the same own axes; of those, the two whose
 * resident threads an SM bracket the cell's own, their ratios interpolated
 * linearly in threads (outside their range: the nearest).  Shared memory
 * reaches the time only through occupancy, and the ratio changes most
 * across an occupancy step (one workgroup an SM against several): a ratio
 * chosen by bytes would carry one step's error to a cell on the other side
 * of it.  Cells of equal occupancy along the smem axis get one ratio, so
 * the lookup's bracketing of that axis by occupancy (table.c) stays exact.
 * A cell with no anchor keeps the model's time. */
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Of the workgroup sizes k with has[k], the one nearest to wg in log2,
 * the smaller on a tie; -1 when none. */
static int nearest_wg(const exp_axis *ax, const unsigned char *has, double wg)
{
    int best = -1;
    double best_d = INFINITY;
    for (int k = 0; k < ax->count; k++) {
        double d = fabs(log2(ax->values[k]) - log2(wg));
        if (has[k] && d < best_d) {
            best_d = d;
            best = k;
        }
    }
    return best;
}

/* Resident threads an SM at point p run with workgroup size wg and shared
 * memory smem (0 where the workgroup does not fit). */
static double threads_per_sm(const cfg_config *gpu, pat_params p, double wg, double smem)
{
    exp_axis_set(&p, EXP_AXIS_WG, wg);
    exp_axis_set(&p, EXP_AXIS_SMEM, smem);
    return (double)exp_wgs_per_sm(gpu, &p) * wg;
}

/* The simulator / model ratio of simulator cell j, computed when first
 * used (ratio[j] is NAN until then).  0, or -1 with err. */
static int ratio_of(const cfg_config *gpu, const exp_pattern *ep, size_t j, double *ratio, char err[CFG_ERR_MAX])
{
    if (!isnan(ratio[j]))
        return 0;
    pat_params p;
    double model_us = 0;
    enum exp_source src;
    char why[CFG_ERR_MAX];
    exp_cell_point(ep, j, &p);
    int failed = exp_model_gpu(NULL, gpu, &p, &model_us, &src, why);
    if (failed || !(exp_round6(model_us) > 0)) {
        snprintf(err, CFG_ERR_MAX, "%s n=%llu wg=%d: the anchor's model time: %s", pat_name(ep->pattern),
                 (unsigned long long)p.n, p.wg, failed ? why : "not positive");
        return -1;
    }
    ratio[j] = ep->cells[j].gpu_us / exp_round6(model_us);
    return 0;
}

/* One candidate anchor: a simulator cell at the anchor's workgroup size,
 * its resident threads an SM and its ratio. */
typedef struct anchor {
    double threads, ratio;
} anchor;

/* The ratio for model cell idx (its point p): at the anchor workgroup size
 * w, each shared-memory value with simulator cells gives the ratio of the
 * largest n at or below the cell's; the two whose resident threads an SM
 * bracket the cell's are interpolated linearly in threads, and a cell
 * outside their range takes the nearest.  1 with *r set, 0 when no
 * shared-memory value has an anchor, -1 with err. */
static int ratio_for(const cfg_config *gpu, const exp_pattern *ep, const int *idx, const pat_params *p, int w,
                     const unsigned char *has_smem, double *ratio, double *r, char err[CFG_ERR_MAX])
{
    const exp_axis *wg = &ep->axes[1], *smem = &ep->axes[2];
    double want = threads_per_sm(gpu, *p, p->wg, p->smem_per_wg);
    anchor lo = { -INFINITY, NAN }, hi = { INFINITY, NAN };
    int a[EXP_MAX_AXES];
    memcpy(a, idx, sizeof a);
    a[1] = w;
    for (int k = 0; k < smem->count; k++) {
        if (!has_smem[k])
            continue;
        a[2] = k;
        size_t j = 0;
        int found = 0;
        for (a[0] = idx[0]; a[0] >= 0 && !found; a[0]--) {
            j = flat(ep, a);
            found = ep->cells[j].source == EXP_SOURCE_SIM;
        }
        if (!found)
            continue;
        if (ratio_of(gpu, ep, j, ratio, err))
            return -1;
        /* smem runs upward, so among equal thread counts the first (the
         * smaller value) is kept */
        anchor c = { threads_per_sm(gpu, *p, wg->values[w], smem->values[k]), ratio[j] };
        if (c.threads <= want && c.threads > lo.threads)
            lo = c;
        if (c.threads >= want && c.threads < hi.threads)
            hi = c;
    }
    if (isnan(lo.ratio) && isnan(hi.ratio))
        return 0;
    if (isnan(lo.ratio) || isnan(hi.ratio) || hi.threads == lo.threads)
        *r = isnan(lo.ratio) ? hi.ratio : lo.ratio;
    else
        *r = lo.ratio + (hi.ratio - lo.ratio) * (want - lo.threads) / (hi.threads - lo.threads);
    return 1;
}

int exp_anchor_pattern(const cfg_config *gpu, exp_pattern *ep, char err[CFG_ERR_MAX])
{
    /* axes 0, 1, 2 are n, wg and smem_per_wg (exp_axes_of) */
    if (ep->axis_count < 3 || ep->axes[0].kind != EXP_AXIS_N || ep->axes[1].kind != EXP_AXIS_WG ||
        ep->axes[2].kind != EXP_AXIS_SMEM) {
        snprintf(err, CFG_ERR_MAX, "%s: the grid does not start with n, wg, smem_per_wg", pat_name(ep->pattern));
        return -1;
    }
    const exp_axis *wg = &ep->axes[1];
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
    double *ratio = malloc(ep->cell_count * sizeof *ratio);
    if (!ratio) {
        snprintf(err, CFG_ERR_MAX, "out of memory for %zu cells", ep->cell_count);
        return -1;
    }
    for (size_t i = 0; i < ep->cell_count; i++)
        ratio[i] = NAN;
    int rc = 0;
    for (size_t i = 0; i < ep->cell_count; i++) {
        exp_cell *c = &ep->cells[i];
        if (c->source != EXP_SOURCE_MODEL)
            continue;
        unflat(ep, i, idx);
        pat_params p;
        exp_cell_point(ep, i, &p);
        int w = nearest_wg(wg, has_wg, wg->values[idx[1]]);
        double r;
        int got = ratio_for(gpu, ep, idx, &p, w, has_smem[w], ratio, &r, err);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (!got)
            continue;
        c->gpu_us = exp_round6(c->gpu_us * r);
        c->source = EXP_SOURCE_ANCHORED;
    }
    free(ratio);
    return rc;
}
