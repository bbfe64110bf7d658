/* Flag parsing, grid expansion and normalization of configurations. One
 * table holds each flag's name, kind, range and help, and drives parsing,
 * range checks and --help alike. */
#include "vkb_cfg.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vkb_common.h"

typedef enum { OPT_PATTERNS, OPT_U32S, OPT_FRACS, OPT_INT } opt_kind;

typedef struct opt {
    const char *name;
    opt_kind kind;
    size_t count_off; /* int counter of the list (or the int itself) */
    size_t vals_off;
    double lo, hi;
    int allow_max; /* accepts the word "max" */
    const char *unit;
    const char *help;
} opt;

#define F(field) offsetof(vkb_sweep, field)

static const opt opts[] = {
    {"pattern", OPT_PATTERNS, F(npattern), F(pattern), 0, 0, 0, "",
     "pattern name(s), or all"},
    {"n", OPT_U32S, F(nn), F(n), 1, 268435456.0, 0, "threads",
     "work items, one thread each (default 1048576)"},
    {"wg", OPT_U32S, F(nwg), F(wg), 1, 1024, 0, "threads",
     "workgroup size (default 256)"},
    {"selectivity", OPT_FRACS, F(nsel), F(sel), 0, 1, 0, "fraction",
     "fraction of threads selected (default 1)"},
    {"bins", OPT_U32S, F(nbins), F(bins), 1, 16777216.0, 0, "bins",
     "histogram bins K (default 256)"},
    {"hot", OPT_FRACS, F(nhot), F(hot), 0, 1, 0, "fraction",
     "histogram: fraction of threads sent to bin 0 (default 0)"},
    {"addresses", OPT_U32S, F(naddr), F(addresses), 1, 4194304.0, 0, "lines",
     "distinct-lines: addresses P, one per 128-byte line (default 1)"},
    {"smem-per-wg", OPT_U32S, F(nsmem), F(smem), 0, 1048576.0, 1, "bytes",
     "shared memory per workgroup, or max (default: the pattern's own)"},
    {"reps", OPT_INT, F(reps), 0, 1, 1000, 0, "",
     "timed repetitions per configuration (default 9)"},
    {"warmup", OPT_INT, F(warmup), 0, 0, 100, 0, "",
     "untimed repetitions before them (default 2)"},
};

#define NOPTS (sizeof opts / sizeof opts[0])

static const opt *find_opt(const char *name)
{
    for (size_t k = 0; k < NOPTS; k++)
        if (strcmp(opts[k].name, name) == 0)
            return &opts[k];
    return NULL;
}

void vkb_sweep_init(vkb_sweep *s)
{
    memset(s, 0, sizeof *s);
    s->nn = s->nwg = s->nsel = s->nbins = s->nhot = s->naddr = s->nsmem = 1;
    s->n[0] = 1048576;
    s->wg[0] = 256;
    s->sel[0] = 1.0;
    s->bins[0] = 256;
    s->hot[0] = 0.0;
    s->addresses[0] = 1;
    s->smem[0] = 0;
    s->reps = s->warmup = -1;
}

int vkb_sweep_has_flag(const char *name)
{
    return find_opt(name) != NULL;
}

/* Decimal, or 2^E for the powers of two that sweeps are made of. */
static int parse_u64(const char *t, uint64_t *v)
{
    char *end;
    if (!isdigit((unsigned char)t[0]))
        return -1;
    errno = 0;
    unsigned long long a = strtoull(t, &end, 10);
    if (errno)
        return -1;
    if (end[0] == '^') {
        if (a != 2 || !isdigit((unsigned char)end[1]))
            return -1;
        unsigned long long e = strtoull(end + 1, &end, 10);
        if (e > 40)
            return -1;
        a = 1ull << e;
    }
    if (*end)
        return -1;
    *v = a;
    return 0;
}

static int parse_item(const opt *o, const char *t, vkb_sweep *s, int idx,
                      char *err)
{
    char *base = (char *)s;

    if (o->kind == OPT_PATTERNS) {
        int id = vkb_pattern_find(t);
        if (id < 0)
            return vkb_errf(err, VKB_EUSAGE, "unknown pattern '%s' for --%s",
                            t, o->name);
        ((int *)(base + o->vals_off))[idx] = id;
        return VKB_OK;
    }
    if (o->kind == OPT_FRACS) {
        char *end;
        errno = 0;
        double d = strtod(t, &end);
        if (errno || end == t || *end || !isfinite(d) || d < o->lo ||
            d > o->hi)
            return vkb_errf(err, VKB_EUSAGE,
                            "--%s: '%s' is not a number in [%g, %g]", o->name,
                            t, o->lo, o->hi);
        ((double *)(base + o->vals_off))[idx] = d;
        return VKB_OK;
    }
    if (o->allow_max && strcmp(t, "max") == 0) {
        ((uint32_t *)(base + o->vals_off))[idx] = VKB_SMEM_MAX;
        return VKB_OK;
    }
    uint64_t v;
    if (parse_u64(t, &v) || (double)v < o->lo || (double)v > o->hi)
        return vkb_errf(err, VKB_EUSAGE,
                        "--%s: '%s' is not an integer in [%.0f, %.0f]%s",
                        o->name, t, o->lo, o->hi,
                        o->allow_max ? " or max" : "");
    if (o->kind == OPT_INT)
        *(int *)(base + o->count_off) = (int)v;
    else
        ((uint32_t *)(base + o->vals_off))[idx] = (uint32_t)v;
    return VKB_OK;
}

int vkb_sweep_set(vkb_sweep *s, const char *name, const char *value,
                  char *err)
{
    const opt *o = find_opt(name);
    char buf[4096];
    int count = 0;

    if (!o)
        return vkb_errf(err, VKB_EUSAGE, "unknown flag --%s", name);
    if (!value || !*value)
        return vkb_errf(err, VKB_EUSAGE, "--%s needs a value", name);
    if (strlen(value) >= sizeof buf)
        return vkb_errf(err, VKB_EUSAGE, "--%s: value too long", name);
    if (o->kind == OPT_INT)
        return parse_item(o, value, s, 0, err);
    if (o->kind == OPT_PATTERNS && strcmp(value, "all") == 0) {
        for (int id = 0; id < VKB_NPATTERNS; id++)
            s->pattern[id] = id;
        s->npattern = VKB_NPATTERNS;
        return VKB_OK;
    }
    strcpy(buf, value);
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t;
         t = strtok_r(NULL, ",", &save)) {
        if (count == VKB_LIST_MAX)
            return vkb_errf(err, VKB_EUSAGE, "--%s: more than %d values",
                            name, VKB_LIST_MAX);
        int rc = parse_item(o, t, s, count, err);
        if (rc)
            return rc;
        count++;
    }
    if (count == 0 || value[strlen(value) - 1] == ',' || value[0] == ',' ||
        strstr(value, ",,"))
        return vkb_errf(err, VKB_EUSAGE, "--%s: malformed list '%s'", name,
                        value);
    *(int *)((char *)s + o->count_off) = count;
    return VKB_OK;
}

int vkb_sweep_expand(const vkb_sweep *s, int reps, int warmup, int line,
                     vkb_cfg_list *out, char *err)
{
    vkb_cfg c;

    if (s->npattern == 0)
        return vkb_errf(err, VKB_EUSAGE, "no --pattern given");
    memset(&c, 0, sizeof c);
    c.reps = s->reps >= 0 ? s->reps : reps;
    c.warmup = s->warmup >= 0 ? s->warmup : warmup;
    c.line = line;
    for (int a = 0; a < s->npattern; a++)
    for (int b = 0; b < s->nn; b++)
    for (int d = 0; d < s->nwg; d++)
    for (int e = 0; e < s->nsmem; e++)
    for (int f = 0; f < s->nbins; f++)
    for (int g = 0; g < s->nhot; g++)
    for (int h = 0; h < s->naddr; h++)
    for (int k = 0; k < s->nsel; k++) {
        c.pattern = s->pattern[a];
        c.n = s->n[b];
        c.wg = s->wg[d];
        c.smem_per_wg = s->smem[e];
        c.bins = s->bins[f];
        c.hot = s->hot[g];
        c.addresses = s->addresses[h];
        c.selectivity = s->sel[k];
        if (vkb_cfg_list_push(out, &c))
            return vkb_errf(err, VKB_EFAIL, "out of memory");
    }
    return VKB_OK;
}

void vkb_sweep_help(FILE *f)
{
    for (size_t k = 0; k < NOPTS; k++) {
        const opt *o = &opts[k];
        char range[64] = "";
        if (o->kind == OPT_FRACS)
            snprintf(range, sizeof range, "[%g, %g]", o->lo, o->hi);
        else if (o->kind != OPT_PATTERNS)
            snprintf(range, sizeof range, "[%.0f, %.0f]", o->lo, o->hi);
        fprintf(f, "  --%-14s %-22s %s%s%s\n", o->name, range, o->help,
                *o->unit ? "; " : "", o->unit);
    }
}

void vkb_cfg_normalize(vkb_cfg *c, uint32_t smem_max)
{
    unsigned uses = vkb_pattern_get(c->pattern)->uses;

    if (!(uses & VKB_USES_SELECTIVITY))
        c->selectivity = 1.0;
    if (!(uses & VKB_USES_BINS))
        c->bins = 256;
    if (!(uses & VKB_USES_HOT))
        c->hot = 0.0;
    if (!(uses & VKB_USES_ADDRESSES))
        c->addresses = 1;
    if (c->smem_per_wg == VKB_SMEM_MAX)
        c->smem_per_wg = smem_max;
    uint32_t need = vkb_pattern_smem_need(c->pattern, c->bins);
    if (c->smem_per_wg < need)
        c->smem_per_wg = need;
}

int vkb_cfg_same(const vkb_cfg *a, const vkb_cfg *b)
{
    return a->pattern == b->pattern && a->n == b->n && a->wg == b->wg &&
           a->bins == b->bins && a->addresses == b->addresses &&
           a->smem_per_wg == b->smem_per_wg &&
           a->selectivity == b->selectivity && a->hot == b->hot;
}

const char *vkb_cfg_describe(const vkb_cfg *c, char *buf, size_t len)
{
    snprintf(buf, len,
             "%s n=%u wg=%u selectivity=%g bins=%u hot=%g addresses=%u "
             "smem-per-wg=%u",
             vkb_pattern_get(c->pattern)->name, c->n, c->wg, c->selectivity,
             c->bins, c->hot, c->addresses, c->smem_per_wg);
    return buf;
}

int vkb_cfg_list_push(vkb_cfg_list *l, const vkb_cfg *c)
{
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        vkb_cfg *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return VKB_EFAIL;
        l->v = v;
        l->cap = cap;
    }
    l->v[l->len++] = *c;
    return VKB_OK;
}

void vkb_cfg_list_free(vkb_cfg_list *l)
{
    free(l->v);
    l->v = NULL;
    l->len = l->cap = 0;
}
