/* plan_draw.c - draws random harness plans (see plan_draw.h): the ranges,
 * their grammar and checks, the distributions of each parameter, the CAS
 * contention guard and the repeat check. */
#include "plan_draw.h"
#include "../util/num.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/* Each domain is the parameter's harness range in the contract's table
 * (model/params.c: what vkbench and cpubench accept, inside atomsim's
 * bounds), so that every plan written runs on all three. */
static const struct {
    const char *flag;
    enum pat_param_id param; /* the domain: its hmin..hmax */
    uint64_t lo, hi;         /* the default range */
} axes[PLN_AX_COUNT] = {
    [PLN_AX_N] = { "n-range", PP_N, 1u << 10, 1u << 24 },
    [PLN_AX_WG] = { "wg-range", PP_WG, 32, 1024 },
    [PLN_AX_SMEM] = { "smem-range", PP_SMEM_PER_WG, 0, 49152 },
    [PLN_AX_BINS] = { "bins-range", PP_BINS, 1, 1u << 22 },
    [PLN_AX_CAS_BINS] = { "cas-bins-range", PP_BINS, 1, 1u << 16 },
    [PLN_AX_ADDRESSES] = { "addresses-range", PP_ADDRESSES, 1, 1u << 22 },
};

const char *pln_axis_flag(enum pln_axis ax)
{
    return axes[ax].flag;
}

void pln_axis_domain(enum pln_axis ax, double *lo, double *hi)
{
    const pat_param_desc *d = pat_param_get(axes[ax].param);
    *lo = d->hmin;
    *hi = d->hmax;
}

void pln_spec_defaults(pln_spec *s)
{
    memset(s, 0, sizeof *s);
    for (int ax = 0; ax < PLN_AX_COUNT; ax++)
        s->ax[ax] = (pln_range){ axes[ax].lo, axes[ax].hi };
    s->sel = (pln_range){ 0, 1000000 };
    s->hot = (pln_range){ 0, 1000 };
    for (int i = 0; i < PAT_COUNT; i++)
        s->pats[i] = (enum pat_id)i;
    s->npat = PAT_COUNT;
    s->max_cas = 131072;
}

/* ---- the ranges' grammar --------------------------------------------------- */

/* The integers' grammar is num_parse_u64's (base 10, 2^E, 1e6; no 0x and no
 * leading zero), as every flag's. */
int pln_parse_int(const char *s, uint64_t *out)
{
    unsigned long long v;
    if (num_parse_u64(s, &v))
        return -1;
    *out = v;
    return 0;
}

/* A decimal fraction in [0, 1] that lies on a grid of `scale` steps; it is
 * returned in steps. */
static int parse_grid_fraction(const char *s, double scale, uint64_t *out)
{
    double v;
    if (!strncmp(s, "2^", 2) || num_parse_double(s, &v) || v < 0 || v > 1)
        return -1;
    double steps = v * scale;
    if (fabs(steps - nearbyint(steps)) > 1e-6)
        return -1;
    *out = (uint64_t)llround(steps);
    return 0;
}

/* LO..HI into two texts; returns -1 when there is no "..". */
static int split_range(const char *arg, char *lo, char *hi, size_t len)
{
    const char *dots = strstr(arg, "..");
    if (!dots || (size_t)(dots - arg) >= len || strlen(dots + 2) >= len)
        return -1;
    memcpy(lo, arg, (size_t)(dots - arg));
    lo[dots - arg] = 0;
    strcpy(hi, dots + 2);
    return 0;
}

int pln_parse_int_range(enum pln_axis ax, const char *text, pln_range *r, char err[CFG_ERR_MAX])
{
    const char *flag = pln_axis_flag(ax);
    char lo[64], hi[64];
    double dlo, dhi;
    if (split_range(text, lo, hi, sizeof lo) || pln_parse_int(lo, &r->lo) || pln_parse_int(hi, &r->hi)) {
        snprintf(err, CFG_ERR_MAX, "--%s '%s' is not LO..HI with decimal or 2^E integers", flag, text);
        return -1;
    }
    pln_axis_domain(ax, &dlo, &dhi);
    if ((double)r->lo < dlo || (double)r->hi > dhi) {
        snprintf(err, CFG_ERR_MAX, "--%s '%s' leaves the domain [%.0f, %.0f]", flag, text, dlo, dhi);
        return -1;
    }
    if (r->lo > r->hi) {
        snprintf(err, CFG_ERR_MAX, "--%s '%s': LO is above HI", flag, text);
        return -1;
    }
    return 0;
}

int pln_parse_fraction_range(const char *flag, const char *text, double scale, pln_range *r, char err[CFG_ERR_MAX])
{
    char lo[64], hi[64];
    if (split_range(text, lo, hi, sizeof lo) || parse_grid_fraction(lo, scale, &r->lo) ||
        parse_grid_fraction(hi, scale, &r->hi)) {
        /* the grid's step as a decimal: 0.000001, 0.001 */
        snprintf(err, CFG_ERR_MAX, "--%s '%s' is not LO..HI with decimal fractions in [0, 1], multiples of %.*f", flag,
                 text, (int)lround(log10(scale)), 1 / scale);
        return -1;
    }
    if (r->lo > r->hi) {
        snprintf(err, CFG_ERR_MAX, "--%s '%s': LO is above HI", flag, text);
        return -1;
    }
    return 0;
}

int pln_check(const pln_spec *s, char err[CFG_ERR_MAX])
{
    const pln_range *wg = &s->ax[PLN_AX_WG], *smem = &s->ax[PLN_AX_SMEM];
    if ((wg->lo + 31) / 32 > wg->hi / 32) {
        snprintf(err, CFG_ERR_MAX, "--wg-range %llu..%llu holds no multiple of 32", (unsigned long long)wg->lo,
                 (unsigned long long)wg->hi);
        return -1;
    }
    if ((smem->lo + 1023) / 1024 > smem->hi / 1024) {
        snprintf(err, CFG_ERR_MAX, "--smem-range %llu..%llu holds no multiple of 1024", (unsigned long long)smem->lo,
                 (unsigned long long)smem->hi);
        return -1;
    }
    for (int i = 0; i < s->npat; i++) {
        pat_params q;
        pat_defaults(&q);
        q.pattern = s->pats[i];
        q.bins = (uint32_t)s->ax[PLN_AX_BINS].lo;
        uint32_t need = pat_own_smem_bytes(&q);
        if (need > smem->hi) {
            if (s->pats[i] == PAT_HISTOGRAM_SHARED)
                snprintf(err, CFG_ERR_MAX,
                         "histogram-shared at --bins-range's LO %u needs %u bytes of shared memory; "
                         "--smem-range ends at %llu", q.bins, need, (unsigned long long)smem->hi);
            else
                snprintf(err, CFG_ERR_MAX, "%s needs %u bytes of shared memory; --smem-range ends at %llu",
                         pat_name(s->pats[i]), need, (unsigned long long)smem->hi);
            return -1;
        }
    }
    return 0;
}

/* ---- the distributions ------------------------------------------------------ */

static int pattern_reads(enum pat_id p, unsigned flag)
{
    return (pat_flags(p) & flag) != 0;
}

static uint64_t uniform_int(gsl_rng *r, uint64_t lo, uint64_t hi)
{
    return lo + gsl_rng_uniform_int(r, (unsigned long)(hi - lo + 1));
}

static uint64_t log_uniform_int(gsl_rng *r, uint64_t lo, uint64_t hi)
{
    if (lo == hi)
        return lo;
    double a = log((double)lo), b = log((double)hi + 1.0);
    double x = floor(exp(a + gsl_rng_uniform(r) * (b - a)));
    /* exp may round a hair past either end */
    if (x < (double)lo)
        return lo;
    if (x > (double)hi)
        return hi;
    return (uint64_t)x;
}

static int is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

/* The exponents of the powers of two in [lo, hi]; 0 if there are none. */
static int pow2_exponents(uint64_t lo, uint64_t hi, int *elo, int *ehi)
{
    int count = 0;
    for (int e = 0; e < 63; e++)
        if ((1ull << e) >= lo && (1ull << e) <= hi) {
            if (!count++)
                *elo = e;
            *ehi = e;
        }
    return count;
}

/* Each pattern's rows alternate between exact powers of two and other
 * integers, so that both the grid's own points and what lies between
 * them get tested. */
static uint64_t draw_n(gsl_rng *r, const pln_range *n, int want_pow2)
{
    int elo = 0, ehi = 0, pows = pow2_exponents(n->lo, n->hi, &elo, &ehi);
    int others = n->hi - n->lo + 1 > (uint64_t)pows;
    if (pows && (want_pow2 || !others))
        return 1ull << uniform_int(r, (uint64_t)elo, (uint64_t)ehi);
    for (;;) {
        uint64_t v = log_uniform_int(r, n->lo, n->hi);
        if (!is_pow2(v))
            return v;
    }
}

static uint32_t draw_selectivity(gsl_rng *r, const pln_range *s)
{
    double u = gsl_rng_uniform(r);
    if (u < 0.1)
        return (uint32_t)s->lo;
    if (u < 0.3 || s->hi == 0)
        return (uint32_t)s->hi;
    double a = fmax((double)s->lo, (double)s->hi / 1000.0), b = (double)s->hi;
    double v = nearbyint(a * exp(gsl_rng_uniform(r) * log(b / a)));
    return (uint32_t)fmin(fmax(v, (double)s->lo), b);
}

static uint32_t draw_smem(gsl_rng *r, const pln_range *m)
{
    if (gsl_rng_uniform(r) < 0.3)
        return (uint32_t)m->lo;
    return (uint32_t)(1024 * uniform_int(r, (m->lo + 1023) / 1024, m->hi / 1024));
}

static void draw_row(gsl_rng *r, const pln_spec *s, enum pat_id p, int want_pow2, pln_row *out)
{
    pat_params d;
    pat_defaults(&d);
    out->pattern = p;
    out->n = (uint32_t)draw_n(r, &s->ax[PLN_AX_N], want_pow2);
    out->wg = 32 * (uint32_t)log_uniform_int(r, (s->ax[PLN_AX_WG].lo + 31) / 32, s->ax[PLN_AX_WG].hi / 32);
    out->sel = pattern_reads(p, PF_SELECTIVITY) ? draw_selectivity(r, &s->sel) : pat_threshold(d.selectivity);
    out->bins = d.bins;
    if (p == PAT_HISTOGRAM_U8_CAS || p == PAT_HISTOGRAM_U16_CAS) {
        out->bins = (uint32_t)log_uniform_int(r, s->ax[PLN_AX_CAS_BINS].lo, s->ax[PLN_AX_CAS_BINS].hi);
    } else if (p == PAT_HISTOGRAM) {
        out->bins = (uint32_t)log_uniform_int(r, s->ax[PLN_AX_BINS].lo, s->ax[PLN_AX_BINS].hi);
    } else if (p == PAT_HISTOGRAM_SHARED) {
        /* Drawing below the cap is the same distribution as drawing the
         * full range and redrawing what does not fit, at one draw. */
        uint64_t cap = s->ax[PLN_AX_SMEM].hi / 4;
        out->bins = (uint32_t)log_uniform_int(r, s->ax[PLN_AX_BINS].lo,
                                              cap < s->ax[PLN_AX_BINS].hi ? cap : s->ax[PLN_AX_BINS].hi);
    }
    out->hot = 0;
    if (pattern_reads(p, PF_HOT))
        out->hot = gsl_rng_uniform(r) < 0.6 ? (uint32_t)s->hot.lo : (uint32_t)uniform_int(r, s->hot.lo, s->hot.hi);
    out->addresses = pattern_reads(p, PF_ADDRESSES)
                         ? (uint32_t)log_uniform_int(r, s->ax[PLN_AX_ADDRESSES].lo, s->ax[PLN_AX_ADDRESSES].hi)
                         : d.addresses;
    /* What the workgroup really allocates, as vkbench and the simulator
     * both take it, so that equal rows compare equal. */
    pat_params q = d;
    q.pattern = p;
    q.bins = out->bins;
    q.smem_per_wg = draw_smem(r, &s->ax[PLN_AX_SMEM]);
    out->smem = pat_smem_bytes(&q);
}

/* Threads that race on the hottest word of a compare-and-swap loop (0 for
 * other patterns): the loop's time grows about as their square, and past
 * 2^17 (the most the contract's datasets measure) one dispatch can outlast
 * the harness's fence timeout and end the whole GPU run. */
static double cas_contenders(const pln_row *w)
{
    switch (w->pattern) {
    case PAT_CAS_APPEND: return w->n * (w->sel / 1e6);
    case PAT_HISTOGRAM_U8_CAS: return w->n / ceil(w->bins / 4.0);
    case PAT_HISTOGRAM_U16_CAS: return w->n / ceil(w->bins / 2.0);
    default: return 0;
    }
}

/* ---- the repeat check -------------------------------------------------------- */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

static uint64_t fingerprint(const pln_row *w)
{
    uint64_t h = mix(0, (uint64_t)w->pattern);
    h = mix(h, w->n);
    h = mix(h, w->wg);
    h = mix(h, w->sel);
    h = mix(h, w->bins);
    h = mix(h, w->hot);
    h = mix(h, w->addresses);
    h = mix(h, w->smem);
    return h ? h : 1;
}

/* Open addressing over fingerprints, 0 = empty.  Two rows with one
 * fingerprint would only cost a redraw, never a wrong row. */
typedef struct {
    uint64_t *slot;
    size_t mask;
} fpset;

static int fpset_init(fpset *s, uint64_t rows)
{
    size_t size = 64;
    while (size < 2 * rows)
        size *= 2;
    s->slot = calloc(size, sizeof *s->slot);
    s->mask = size - 1;
    return s->slot ? 0 : -1;
}

/* 1 if it was new (now added), 0 if seen. */
static int fpset_add(fpset *s, uint64_t fp)
{
    for (size_t i = (size_t)fp & s->mask;; i = (i + 1) & s->mask) {
        if (s->slot[i] == fp)
            return 0;
        if (!s->slot[i]) {
            s->slot[i] = fp;
            return 1;
        }
    }
}

/* ---- the drawer ---------------------------------------------------------------- */

struct pln_drawer {
    pln_spec spec;
    gsl_rng *r;
    fpset seen;
    int pow2_next[PAT_COUNT];         /* per pattern: is its next n a power of two */
    enum pat_id order[PAT_COUNT];     /* this round's order */
    uint64_t drawn, repeats;
};

int pln_drawer_new(const pln_spec *s, pln_drawer **out)
{
    pln_drawer *d = calloc(1, sizeof *d);
    if (!d)
        return -1;
    d->spec = *s;
    if (fpset_init(&d->seen, s->rows) || !(d->r = gsl_rng_alloc(gsl_rng_mt19937))) {
        pln_drawer_free(d);
        return -1;
    }
    gsl_rng_set(d->r, (unsigned long)s->seed);
    /* each pattern's first n is a power of two or not at random */
    for (int i = 0; i < PAT_COUNT; i++)
        d->pow2_next[i] = (int)gsl_rng_uniform_int(d->r, 2);
    memcpy(d->order, s->pats, sizeof d->order);
    *out = d;
    return 0;
}

void pln_draw(pln_drawer *d, pln_row *w)
{
    uint64_t npat = (uint64_t)d->spec.npat;
    /* rows are dealt in rounds, every pattern once a round in a fresh
     * random order, so each gets rows/npat or one more */
    if (d->drawn % npat == 0)
        gsl_ran_shuffle(d->r, d->order, (size_t)npat, sizeof d->order[0]);
    enum pat_id p = d->order[d->drawn % npat];
    int tries = 0;
    do {
        /* an over-contended CAS row is no configuration of the plan:
         * drawn again until it fits, before the repeat check */
        int hot = 0;
        do
            draw_row(d->r, &d->spec, p, d->pow2_next[p], w);
        while (cas_contenders(w) > d->spec.max_cas && ++hot < 100000);
    } while (!fpset_add(&d->seen, fingerprint(w)) && ++tries <= PLN_MAX_REDRAWS);
    d->repeats += tries > PLN_MAX_REDRAWS;
    d->pow2_next[p] = !d->pow2_next[p];
    d->drawn++;
}

uint64_t pln_repeats(const pln_drawer *d)
{
    return d->repeats;
}

void pln_drawer_free(pln_drawer *d)
{
    if (!d)
        return;
    if (d->r)
        gsl_rng_free(d->r);
    free(d->seen.slot);
    free(d);
}

/* The parameters `run` and `sweep --points` read from the plan's CSV row:
 * the contract's defaults, then every column.  The fractions are exact:
 * the CSV prints the grid's steps as a decimal, which strtod reads back to
 * the double nearest that decimal, and steps / scale (two exact integers)
 * rounds to the same double. */
void pln_row_params(const pln_row *w, pat_params *p)
{
    pat_defaults(p);
    p->pattern = w->pattern;
    p->n = w->n;
    p->wg = (int)w->wg;
    p->selectivity = w->sel / PLN_SEL_SCALE;
    p->bins = w->bins;
    p->hot = w->hot / PLN_HOT_SCALE;
    p->addresses = w->addresses;
    p->smem_per_wg = w->smem;
}
