/* export.c - builds the cost tables: each pattern's grid, its cells and
 * the decisions; the writers are export_write.c (JSON, CSV) and
 * export_header.c (the C header). */
#include "export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_tier.h"
#include "density.h"
#include "formulas.h"
#include "model.h"
#include "../util/sig6.h"

/* Each axis is a parameter of the contract's table (model/params.c): its
 * name is the parameter's CSV column, its value the parameter's field. */
static const enum pat_param_id axis_param[EXP_AXIS_KIND_COUNT] = {
    [EXP_AXIS_N] = PP_N,
    [EXP_AXIS_WG] = PP_WG,
    [EXP_AXIS_SMEM] = PP_SMEM_PER_WG,
    [EXP_AXIS_SELECTIVITY] = PP_SELECTIVITY,
    [EXP_AXIS_BINS] = PP_BINS,
    [EXP_AXIS_HOT] = PP_HOT,
    [EXP_AXIS_ADDRESSES] = PP_ADDRESSES,
};

const char *exp_axis_name(enum exp_axis_kind k)
{
    return (unsigned)k < EXP_AXIS_KIND_COUNT ? pat_param_get(axis_param[k])->csv : "?";
}

int exp_axis_from_name(const char *name, enum exp_axis_kind *out)
{
    for (int i = 0; i < EXP_AXIS_KIND_COUNT; i++)
        if (!strcmp(name, exp_axis_name((enum exp_axis_kind)i))) {
            *out = (enum exp_axis_kind)i;
            return 0;
        }
    return -1;
}

/* Counts and sizes interpolate in log2: a density of 1/K is then exact
 * between powers of two, and a GPU's time per element is closer to linear
 * in log n than in n.  Shared memory interpolates linearly from 0. */
int exp_axis_log2(enum exp_axis_kind k)
{
    return k == EXP_AXIS_N || k == EXP_AXIS_WG || k == EXP_AXIS_BINS || k == EXP_AXIS_ADDRESSES;
}

int exp_axis_gpu_only(enum exp_axis_kind k)
{
    return k == EXP_AXIS_WG || k == EXP_AXIS_SMEM;
}

void exp_axis_set(pat_params *p, enum exp_axis_kind k, double v)
{
    pat_param_set_value(pat_param_get(axis_param[(unsigned)k < EXP_AXIS_KIND_COUNT ? k : EXP_AXIS_ADDRESSES]), p, v);
}

static void pow2_axis(exp_axis *a, enum exp_axis_kind kind, int lo, int hi)
{
    a->kind = kind;
    a->count = 0;
    for (int e = lo; e <= hi; e++)
        a->values[a->count++] = ldexp(1.0, e);
}

static void list_axis(exp_axis *a, enum exp_axis_kind kind, const double *v, int count)
{
    a->kind = kind;
    a->count = count;
    memcpy(a->values, v, (size_t)count * sizeof *v);
}

/* Workgroup sizes: the powers of two, and between them the sizes that
 * change how many workgroups an SM holds (96, 192, 384, 768: 1.5x). */
static void wg_axis(const cfg_config *c, exp_axis *a)
{
    static const double v[] = { 32, 64, 96, 128, 192, 256, 384, 512, 768, 1024 };
    (void)c;
    list_axis(a, EXP_AXIS_WG, v, (int)(sizeof v / sizeof v[0]));
}

/* Shared memory per workgroup: denser where a step of it changes the
 * workgroups an SM holds most (on the H100 under Vulkan, 65 KiB an SM:
 * 21, 13, 9, 7, 5, 3, 2 and 1 at 2, 4, 6, 8, 12, 16, 24 and 32 KiB), then
 * what one workgroup may allocate.  Lookups bracket this axis by the
 * workgroups an SM holds (table.c), so a query that holds as many as a grid
 * point is exact. */
static void smem_axis(const cfg_config *c, exp_axis *a)
{
    static const double v[] = { 0, 2048, 4096, 6144, 8192, 12288, 16384, 24576, 32768 };
    a->kind = EXP_AXIS_SMEM;
    a->count = 0;
    for (size_t i = 0; i < sizeof v / sizeof v[0] && v[i] < c->gpu.max_smem_per_wg_bytes; i++)
        a->values[a->count++] = v[i];
    a->values[a->count++] = c->gpu.max_smem_per_wg_bytes;
}

/* 0, then 1-2-5 steps from 0.001 to 1. */
static const double selectivities[] = { 0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1 };
/* Hot fractions: denser where bin 0 starts to dominate, and before 1, where
 * every lane of a warp hits one address and merges (the time falls ~10x). */
static const double hots[] = { 0, 0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 0.9, 0.97, 0.99, 1 };

int exp_axes_of(const cfg_config *c, enum pat_id id, exp_axis *axes, int *count)
{
    int k = 0;
    pow2_axis(&axes[k++], EXP_AXIS_N, 10, 26);
    wg_axis(c, &axes[k++]);
    smem_axis(c, &axes[k++]);
    switch (id) {
    case PAT_STORE:
    case PAT_COUNTER:
    case PAT_COUNTER_AGGREGATED:
    case PAT_COMPACTION:
    case PAT_CAS_APPEND:
    case PAT_BITMASK:
        list_axis(&axes[k++], EXP_AXIS_SELECTIVITY, selectivities, (int)(sizeof selectivities / sizeof selectivities[0]));
        break;
    case PAT_HISTOGRAM:
        pow2_axis(&axes[k++], EXP_AXIS_BINS, 0, 22);
        list_axis(&axes[k++], EXP_AXIS_HOT, hots, (int)(sizeof hots / sizeof hots[0]));
        break;
    case PAT_HISTOGRAM_SHARED: {
        /* bins in shared memory: the powers of two one workgroup may
         * allocate (4 bytes per bin), then the most it may */
        int hi = 0;
        while (hi < 22 && 4.0 * ldexp(1.0, hi + 1) <= c->gpu.max_smem_per_wg_bytes)
            hi++;
        exp_axis *b = &axes[k++];
        pow2_axis(b, EXP_AXIS_BINS, 0, hi);
        double most = floor(c->gpu.max_smem_per_wg_bytes / 4.0); /* 12,288 in 48 KiB */
        if (most > b->values[b->count - 1] && b->count < EXP_MAX_VALUES)
            b->values[b->count++] = most;
        break;
    }
    case PAT_HISTOGRAM_U8_CAS:
    case PAT_HISTOGRAM_U16_CAS:
        pow2_axis(&axes[k++], EXP_AXIS_BINS, 0, 22);
        break;
    case PAT_DISTINCT_LINES:
        pow2_axis(&axes[k++], EXP_AXIS_ADDRESSES, 0, 22);
        break;
    case PAT_REDUCE:
        break;
    default:
        return -1;
    }
    *count = k;
    return 0;
}

int exp_wgs_per_sm(const cfg_config *gpu, const pat_params *p)
{
    mdl_occupancy o;
    mdl_occupancy_of(gpu, p->wg, pat_smem_bytes(p), 1, &o);
    return o.wg_per_sm;
}

int exp_model_gpu(void *ctx, const cfg_config *gpu, const pat_params *p, double *gpu_us, enum exp_source *src,
                  char err[CFG_ERR_MAX])
{
    (void)ctx;
    atom_stats st;
    if (mdl_predict(gpu, p, &st, err))
        return -1;
    *gpu_us = st.time_us;
    *src = EXP_SOURCE_MODEL;
    return 0;
}

/* Six significant digits, the precision the writers print: the cells
 * decide on the numbers a reader of the table will see, so a lookup at a
 * grid point reproduces the cell's verdicts even at a threshold. */
double exp_round6(double v)
{
    return sig6_round(v);
}

static int host_cell_of(const cfg_config *gpu, const cpu_config *cpu, const pat_params *p, exp_host_cell *out,
                        char err[CFG_ERR_MAX])
{
    cpu_cost cc;
    dsp_density d;
    if (cpu_predict(cpu, p, &cc, err))
        return -1;
    if (dsp_density_of(gpu, p, &d)) {
        snprintf(err, CFG_ERR_MAX, "no density for pattern %s", pat_name(p->pattern));
        return -1;
    }
    out->cpu_us = exp_round6(cc.us);
    out->density = exp_round6(d.density);
    out->density_fraction = exp_round6(d.fraction);
    if (!isfinite(out->cpu_us) || !isfinite(out->density)) {
        snprintf(err, CFG_ERR_MAX, "%s n=%llu: a CPU prediction is not finite", pat_name(p->pattern),
                 (unsigned long long)p->n);
        return -1;
    }
    return 0;
}

int exp_decide_point(const cfg_config *gpu, const cpu_config *cpu, const pat_params *p, dsp_decision *out,
                     dsp_density *dens, char err[CFG_ERR_MAX])
{
    exp_host_cell h;
    double g;
    enum exp_source src;
    dsp_policy pol;
    if (exp_model_gpu(NULL, gpu, p, &g, &src, err) || host_cell_of(gpu, cpu, p, &h, err))
        return -1;
    dsp_density_of(gpu, p, dens);
    dsp_policy_of(gpu, &pol);
    dsp_decide(&pol, p, dens, g, h.cpu_us, out);
    return 0;
}

size_t exp_host_index(const exp_pattern *ep, size_t i)
{
    size_t h = 0, stride = 1;
    for (int a = ep->axis_count - 1; a >= 0; a--) {
        size_t count = (size_t)ep->axes[a].count, j = i % count;
        i /= count;
        if (exp_axis_gpu_only(ep->axes[a].kind))
            continue;
        h += j * stride;
        stride *= count;
    }
    return h;
}

/* The point of cell i of the full grid, or of the host grid when
 * skip_gpu_only (the GPU-only axes keep the fixed values). */
static void point_of(const exp_pattern *ep, size_t i, int skip_gpu_only, pat_params *p)
{
    *p = ep->fixed;
    for (int a = ep->axis_count - 1; a >= 0; a--) {
        if (skip_gpu_only && exp_axis_gpu_only(ep->axes[a].kind))
            continue;
        size_t count = (size_t)ep->axes[a].count;
        exp_axis_set(p, ep->axes[a].kind, ep->axes[a].values[i % count]);
        i /= count;
    }
}

static int build_pattern(const exp_table *t, const exp_options *o, enum pat_id id, exp_pattern *ep,
                         char err[CFG_ERR_MAX])
{
    const cfg_config *gpu = &t->gpu;
    memset(ep, 0, sizeof *ep);
    ep->pattern = id;
    if (exp_axes_of(gpu, id, ep->axes, &ep->axis_count)) {
        snprintf(err, CFG_ERR_MAX, "no grid for pattern %s", pat_name(id));
        return -1;
    }
    pat_defaults(&ep->fixed);
    ep->fixed.pattern = id;
    ep->cell_count = ep->host_cell_count = 1;
    for (int a = 0; a < ep->axis_count; a++) {
        ep->cell_count *= (size_t)ep->axes[a].count;
        if (!exp_axis_gpu_only(ep->axes[a].kind))
            ep->host_cell_count *= (size_t)ep->axes[a].count;
    }
    ep->cells = calloc(ep->cell_count, sizeof *ep->cells);
    ep->host_cells = calloc(ep->host_cell_count, sizeof *ep->host_cells);
    if (!ep->cells || !ep->host_cells) {
        snprintf(err, CFG_ERR_MAX, "out of memory for %zu cells", ep->cell_count);
        return -1;
    }
    char why[CFG_ERR_MAX];
    pat_params p;
    for (size_t h = 0; h < ep->host_cell_count; h++) {
        point_of(ep, h, 1, &p);
        if (host_cell_of(gpu, &t->cpu, &p, &ep->host_cells[h], why)) {
            snprintf(err, CFG_ERR_MAX, "%s: %s", pat_name(id), why);
            return -1;
        }
    }
    exp_gpu_fn fn = o && o->gpu_fn ? o->gpu_fn : exp_model_gpu;
    int sa = -1; /* the smem axis */
    size_t smem_stride = 1;
    for (int a = ep->axis_count - 1; a >= 0 && sa < 0; a--) {
        if (ep->axes[a].kind == EXP_AXIS_SMEM)
            sa = a;
        else
            smem_stride *= (size_t)ep->axes[a].count;
    }
    int reuse = sa >= 0 && !(o && o->every_cell);
    for (size_t i = 0; i < ep->cell_count; i++) {
        exp_cell *c = &ep->cells[i];
        point_of(ep, i, 0, &p);
        /* Shared memory reaches the GPU's time only through the workgroups
         * an SM holds: a point that holds as many as its neighbour below on
         * the smem axis has its time (exp_options.every_cell computes it
         * anyway; tests/unit/test_export_smem.c compares the two). */
        size_t s_idx = reuse ? (i / smem_stride) % (size_t)ep->axes[sa].count : 0;
        if (s_idx > 0) {
            pat_params below = p;
            exp_axis_set(&below, EXP_AXIS_SMEM, ep->axes[sa].values[s_idx - 1]);
            if (exp_wgs_per_sm(gpu, &below) == exp_wgs_per_sm(gpu, &p)) {
                c->gpu_us = ep->cells[i - smem_stride].gpu_us;
                c->source = ep->cells[i - smem_stride].source;
                continue;
            }
        }
        if (fn(o ? o->gpu_ctx : NULL, gpu, &p, &c->gpu_us, &c->source, why) || !isfinite(c->gpu_us)) {
            snprintf(err, CFG_ERR_MAX, "%s n=%llu wg=%d: %s", pat_name(id), (unsigned long long)p.n, p.wg,
                     isfinite(c->gpu_us) ? why : "the GPU prediction is not finite");
            return -1;
        }
        c->gpu_us = exp_round6(c->gpu_us);
    }
    if (o && (o->anchor & (1u << id)) && exp_anchor_pattern(gpu, ep, err))
        return -1;
    for (size_t i = 0; i < ep->cell_count; i++) {
        exp_cell *c = &ep->cells[i];
        point_of(ep, i, 0, &p);
        const exp_host_cell *hc = &ep->host_cells[exp_host_index(ep, i)];
        dsp_density d = { 0 };
        d.fraction = hc->density_fraction;
        d.density = hc->density;
        d.atomics = hc->density_fraction > 0;
        d.cas = pat_uses_cas(id);
        dsp_decision dec;
        dsp_decide(&t->policy, &p, &d, c->gpu_us, hc->cpu_us, &dec);
        c->decision = dec.target;
        c->seed_decision = dec.seed_target;
        c->seed_reason = dec.seed_reason;
    }
    return 0;
}

void exp_cell_point(const exp_pattern *ep, size_t i, pat_params *p)
{
    point_of(ep, i, 0, p);
}

int exp_build(const cfg_config *gpu, const cpu_config *cpu, const exp_options *opts, exp_table **out,
              char err[CFG_ERR_MAX])
{
    exp_table *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    t->gpu = *gpu;
    t->cpu = *cpu;
    dsp_policy_of(gpu, &t->policy);
    unsigned only = opts ? opts->only : 0;
    for (int id = 0; id < PAT_COUNT; id++) {
        if (only && !(only & (1u << id)))
            continue;
        if (build_pattern(t, opts, (enum pat_id)id, &t->patterns[t->pattern_count++], err)) {
            exp_free(t);
            return -1;
        }
    }
    *out = t;
    return 0;
}

void exp_set_bands(exp_table *t, enum pat_id id, enum exp_side side, const exp_band *bands, int count)
{
    for (int i = 0; i < t->pattern_count; i++)
        if (t->patterns[i].pattern == id) {
            if (count > EXP_MAX_BANDS)
                count = EXP_MAX_BANDS;
            memcpy(t->patterns[i].bands[side], bands, (size_t)count * sizeof *bands);
            t->patterns[i].band_count[side] = count;
        }
}

void exp_free(exp_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->pattern_count; i++) {
        free(t->patterns[i].cells);
        free(t->patterns[i].host_cells);
    }
    free(t);
}
