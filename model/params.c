/* params.c - names, flags and range checks of the contract's patterns,
 * and the table of their parameters (params.h).  Linked alone into
 * cpubench and vkbench too: it uses nothing but the C library. */
#include "params.h"
#include "../util/num.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    unsigned flags;
    int cas;
} table[PAT_COUNT] = {
    [PAT_STORE] = { "store", PF_SELECTIVITY, 0 },
    [PAT_COUNTER] = { "counter", PF_SELECTIVITY, 0 },
    [PAT_COUNTER_AGGREGATED] = { "counter-aggregated", PF_SELECTIVITY, 0 },
    [PAT_COMPACTION] = { "compaction", PF_SELECTIVITY, 0 },
    [PAT_HISTOGRAM] = { "histogram", PF_BINS | PF_HOT, 0 },
    [PAT_HISTOGRAM_SHARED] = { "histogram-shared", PF_BINS, 0 },
    [PAT_HISTOGRAM_U8_CAS] = { "histogram-u8-cas", PF_BINS, 1 },
    [PAT_HISTOGRAM_U16_CAS] = { "histogram-u16-cas", PF_BINS, 1 },
    [PAT_CAS_APPEND] = { "cas-append", PF_SELECTIVITY, 1 },
    [PAT_BITMASK] = { "bitmask", PF_SELECTIVITY, 0 },
    [PAT_REDUCE] = { "reduce", PF_WG, 0 },
    [PAT_DISTINCT_LINES] = { "distinct-lines", PF_ADDRESSES, 0 },
};

const char *pat_name(enum pat_id id)
{
    return (unsigned)id < PAT_COUNT ? table[id].name : "?";
}

int pat_from_name(const char *name, enum pat_id *out)
{
    for (int i = 0; i < PAT_COUNT; i++)
        if (!strcmp(name, table[i].name)) {
            *out = (enum pat_id)i;
            return 0;
        }
    return -1;
}

int pat_parse_list(const char *list, const char *flag, enum pat_id *ids, int *count, unsigned *mask, char *err,
                   size_t errlen)
{
    char buf[PAT_LIST_MAX];
    unsigned seen = 0;
    int n = 0;
    if (!strcmp(list, "all")) {
        for (n = 0; n < PAT_COUNT; n++) {
            if (ids)
                ids[n] = (enum pat_id)n;
            seen |= 1u << n;
        }
    } else {
        size_t len = strlen(list);
        /* an empty name is a typo, not a name to skip as strtok would */
        if (!len || len >= sizeof buf || list[0] == ',' || list[len - 1] == ',' || strstr(list, ",,")) {
            if (err)
                snprintf(err, errlen, "%s '%s' is not a comma list of pattern names", flag, list);
            return PAT_LIST_SYNTAX;
        }
        memcpy(buf, list, len + 1);
        for (char *t = buf, *c; t; t = c) {
            enum pat_id id;
            if ((c = strchr(t, ',')))
                *c++ = 0;
            int rc = pat_from_name(t, &id) ? PAT_LIST_UNKNOWN : (seen & (1u << id)) ? PAT_LIST_TWICE : PAT_LIST_OK;
            if (rc && err && rc == PAT_LIST_UNKNOWN)
                snprintf(err, errlen, "%s: unknown pattern '%s' (see atomsim --help)", flag, t);
            else if (rc && err)
                snprintf(err, errlen, "%s: '%s' is listed twice", flag, t);
            if (rc)
                return rc;
            seen |= 1u << id;
            if (ids)
                ids[n] = id;
            n++;
        }
    }
    if (count)
        *count = n;
    if (mask)
        *mask = seen;
    return PAT_LIST_OK;
}

unsigned pat_flags(enum pat_id id)
{
    return table[id].flags;
}

int pat_uses_cas(enum pat_id id)
{
    return table[id].cas;
}

/* ---- the parameter table ------------------------------------------------- */

#define FIELD(f) offsetof(pat_params, f)

/* min/max: what atomsim takes; hmin/hmax: the harnesses' limits (vkbench's
 * buffers and workgroup sizes, which cpubench and `atomsim plan` keep so
 * that one plan runs on all of them). */
static const pat_param_desc param_table[PP_COUNT] = {
    [PP_N] = { .name = "n", .flag = "--n", .csv = "n", .meta = "N", .type = PP_U64, .offset = FIELD(n),
               .min = 1, .max = (double)PAT_MAX_N, .hmin = 1, .hmax = 1u << 28, .def = "1048576", .unit = "threads",
               .reads = 0, .show = PP_SHOW_ALWAYS, .help = "work items, one thread each" },
    [PP_WG] = { .name = "wg", .flag = "--wg", .csv = "wg", .meta = "W", .type = PP_INT, .offset = FIELD(wg),
                .min = 1, .max = 65536, .hmin = 1, .hmax = 1024, .def = "256", .unit = "threads",
                .reads = 0, .show = PP_SHOW_ALWAYS, .help = "workgroup size" },
    [PP_SELECTIVITY] = { .name = "selectivity", .flag = "--selectivity", .csv = "selectivity", .meta = "S",
                         .type = PP_DOUBLE, .offset = FIELD(selectivity),
                         .min = 0, .max = 1, .hmin = 0, .hmax = 1, .def = "1", .unit = "fraction",
                         .reads = PF_SELECTIVITY, .show = PP_SHOW_ALWAYS, .help = "fraction of threads selected" },
    [PP_BINS] = { .name = "bins", .flag = "--bins", .csv = "bins", .meta = "K", .type = PP_U32, .offset = FIELD(bins),
                  .min = 1, .max = PAT_MAX_BINS, .hmin = 1, .hmax = 1u << 24, .def = "256", .unit = "bins",
                  .reads = PF_BINS, .show = PP_SHOW_ALWAYS, .help = "histogram bins K" },
    [PP_HOT] = { .name = "hot", .flag = "--hot", .csv = "hot", .meta = "F", .type = PP_DOUBLE, .offset = FIELD(hot),
                 .min = 0, .max = 1, .hmin = 0, .hmax = 1, .def = "0", .unit = "fraction",
                 .reads = PF_HOT, .show = PP_SHOW_ALWAYS, .help = "histogram: fraction of threads sent to bin 0" },
    [PP_ADDRESSES] = { .name = "addresses", .flag = "--addresses", .csv = "addresses", .meta = "P", .type = PP_U32,
                       .offset = FIELD(addresses),
                       .min = 1, .max = PAT_MAX_ADDRESSES, .hmin = 1, .hmax = 1u << 22, .def = "1", .unit = "lines",
                       .reads = PF_ADDRESSES, .show = PP_SHOW_ALWAYS,
                       .help = "distinct-lines: addresses P, one per 128-byte line" },
    [PP_SMEM_PER_WG] = { .name = "smem_per_wg", .flag = "--smem-per-wg", .csv = "smem_per_wg", .meta = "BYTES",
                         .type = PP_U32, .offset = FIELD(smem_per_wg),
                         .min = 0, .max = UINT32_MAX, .hmin = 0, .hmax = 1u << 20, .def = "0", .unit = "bytes",
                         .reads = 0, .show = PP_SHOW_IF_SET, /* 0: the pattern's own need */
                         .help = "shared memory per workgroup" },
    /* no CSV column, no harness flag: a knob of the simulator alone */
    [PP_SEED] = { .name = "seed", .flag = "--seed", .csv = NULL, .meta = "X", .type = PP_U64, .offset = FIELD(seed),
                  .min = 0, .max = (double)UINT64_MAX, .hmin = 0, .hmax = 0, .def = "1", .unit = "",
                  .reads = 0, .show = PP_SHOW_NEVER, .help = "the simulator's arbitration and CAS retry order" },
};

const pat_param_desc *pat_param_table(size_t *count)
{
    *count = PP_COUNT;
    return param_table;
}

const pat_param_desc *pat_param_get(enum pat_param_id id)
{
    return (unsigned)id < PP_COUNT ? &param_table[id] : NULL;
}

enum pat_param_id pat_param_id(const pat_param_desc *d)
{
    return (enum pat_param_id)(d - param_table);
}

const pat_param_desc *pat_param_find(const char *key)
{
    for (int i = 0; i < PP_COUNT; i++)
        if (!strcmp(key, param_table[i].name) || !strcmp(key, param_table[i].flag + 2))
            return &param_table[i];
    return NULL;
}

const pat_param_desc *pat_param_find_flag(const char *flag, size_t len)
{
    for (int i = 0; i < PP_COUNT; i++)
        if (strlen(param_table[i].flag) == len && !strncmp(flag, param_table[i].flag, len))
            return &param_table[i];
    return NULL;
}

const pat_param_desc *pat_param_find_csv(const char *column)
{
    for (int i = 0; i < PP_COUNT; i++)
        if (param_table[i].csv && !strcmp(column, param_table[i].csv))
            return &param_table[i];
    return NULL;
}

static void *field(const pat_param_desc *d, pat_params *p)
{
    return (char *)p + d->offset;
}

static const void *cfield(const pat_param_desc *d, const pat_params *p)
{
    return (const char *)p + d->offset;
}

double pat_param_value(const pat_param_desc *d, const pat_params *p)
{
    const void *f = cfield(d, p);
    switch (d->type) {
    case PP_U64: return (double)*(const uint64_t *)f;
    case PP_INT: return *(const int *)f;
    case PP_U32: return *(const uint32_t *)f;
    case PP_DOUBLE: return *(const double *)f;
    }
    return 0;
}

void pat_param_set_value(const pat_param_desc *d, pat_params *p, double v)
{
    void *f = field(d, p);
    switch (d->type) {
    case PP_U64: *(uint64_t *)f = (uint64_t)v; break;
    case PP_INT: *(int *)f = (int)v; break;
    case PP_U32: *(uint32_t *)f = (uint32_t)v; break;
    case PP_DOUBLE: *(double *)f = v; break;
    }
}

void pat_param_copy(const pat_param_desc *d, pat_params *to, const pat_params *from)
{
    static const size_t size[] = { [PP_U64] = sizeof(uint64_t), [PP_INT] = sizeof(int), [PP_U32] = sizeof(uint32_t),
                                   [PP_DOUBLE] = sizeof(double) };
    memcpy(field(d, to), cfield(d, from), size[d->type]);
}

int pat_param_same(const pat_param_desc *d, const pat_params *a, const pat_params *b)
{
    const void *x = cfield(d, a), *y = cfield(d, b);
    switch (d->type) {
    case PP_U64: return *(const uint64_t *)x == *(const uint64_t *)y;
    case PP_INT: return *(const int *)x == *(const int *)y;
    case PP_U32: return *(const uint32_t *)x == *(const uint32_t *)y;
    case PP_DOUBLE: return *(const double *)x == *(const double *)y;
    }
    return 0;
}

/* A bound in decimal; an integer's at or past 2^64 (UINT64_MAX as a double)
 * is UINT64_MAX. */
static void bound_text(const pat_param_desc *d, double v, char *buf, size_t len)
{
    if (d->type == PP_DOUBLE)
        snprintf(buf, len, "%g", v);
    else if (v >= (double)UINT64_MAX)
        snprintf(buf, len, "%llu", (unsigned long long)UINT64_MAX);
    else
        snprintf(buf, len, "%.0f", v);
}

static void bounds_text(const pat_param_desc *d, char *lo, char *hi, size_t len)
{
    bound_text(d, d->min, lo, len);
    bound_text(d, d->max, hi, len);
}

int pat_param_parse(const pat_param_desc *d, pat_params *p, const char *text, char *err, size_t errlen)
{
    char lo[32], hi[32];
    if (d->type == PP_DOUBLE) {
        double v;
        if (!num_parse_double(text, &v) && v >= d->min && v <= d->max) {
            *(double *)field(d, p) = v;
            return 0;
        }
    } else {
        unsigned long long v;
        if (!num_parse_u64(text, &v) && (double)v >= d->min && (double)v <= d->max) {
            switch (d->type) {
            case PP_U64: *(uint64_t *)field(d, p) = v; break;
            case PP_INT: *(int *)field(d, p) = (int)v; break;
            default: *(uint32_t *)field(d, p) = (uint32_t)v; break;
            }
            return 0;
        }
    }
    bounds_text(d, lo, hi, sizeof lo);
    snprintf(err, errlen, "%s '%s' is not %s in [%s, %s]", d->flag, text, d->type == PP_DOUBLE ? "a number" : "an integer",
             lo, hi);
    return -1;
}

int pat_param_check(const pat_param_desc *d, const pat_params *p, char *err, size_t errlen)
{
    char lo[32], hi[32], v[32];
    double x = pat_param_value(d, p);
    if (x >= d->min && x <= d->max)
        return 0;
    bounds_text(d, lo, hi, sizeof lo);
    if (d->type == PP_DOUBLE)
        snprintf(v, sizeof v, "%g", x);
    else
        pat_param_format(d, p, v, sizeof v);
    snprintf(err, errlen, "%s %s is out of range [%s, %s]", d->flag, v, lo, hi);
    return -1;
}

/* Shortest text that reads back to v (cfg_format_exact's rule, kept here so
 * that the harnesses link this file alone). */
static void format_exact(char *buf, size_t len, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "nan");
        return;
    }
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, len, "%.0f", v);
        return;
    }
    for (int prec = 6; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void pat_param_format(const pat_param_desc *d, const pat_params *p, char *buf, size_t len)
{
    const void *f = cfield(d, p);
    switch (d->type) {
    case PP_U64: snprintf(buf, len, "%llu", (unsigned long long)*(const uint64_t *)f); break;
    case PP_INT: snprintf(buf, len, "%d", *(const int *)f); break;
    case PP_U32: snprintf(buf, len, "%u", *(const uint32_t *)f); break;
    case PP_DOUBLE: format_exact(buf, len, *(const double *)f); break;
    }
}

void pat_describe(const pat_params *p, char *buf, size_t len)
{
    unsigned fl = pat_flags(p->pattern);
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < PP_COUNT && used < len; i++) {
        const pat_param_desc *d = &param_table[i];
        char v[40];
        if (d->show == PP_SHOW_NEVER || (d->reads && !(fl & d->reads)) ||
            (d->show == PP_SHOW_IF_SET && pat_param_value(d, p) == 0))
            continue;
        if (d->type == PP_DOUBLE)
            snprintf(v, sizeof v, "%g", *(const double *)cfield(d, p));
        else
            pat_param_format(d, p, v, sizeof v);
        used += (size_t)snprintf(buf + used, len - used, " %s=%s", d->name, v);
    }
}

void pat_defaults(pat_params *p)
{
    char err[160]; /* the defaults parse: never written */
    memset(p, 0, sizeof *p);
    p->pattern = PAT_COUNTER;
    for (int i = 0; i < PP_COUNT; i++)
        pat_param_parse(&param_table[i], p, param_table[i].def, err, sizeof err);
}

void pat_canonical(pat_params *p)
{
    pat_params d;
    unsigned fl = pat_flags(p->pattern);
    pat_defaults(&d);
    for (int i = 0; i < PP_COUNT; i++) {
        const pat_param_desc *t = &param_table[i];
        if (t->reads && !(fl & t->reads))
            pat_param_copy(t, p, &d);
    }
}

uint32_t pat_threshold(double fraction)
{
    return (uint32_t)llround(fraction * 1000000.0);
}

int pat_check(const pat_params *p, char *err, unsigned errlen)
{
    for (int i = 0; i < PP_COUNT; i++)
        if (pat_param_check(&param_table[i], p, err, errlen))
            return -1;
    return 0;
}

int pat_returns_old_value(enum pat_id id)
{
    return id == PAT_HISTOGRAM_U8_CAS || id == PAT_HISTOGRAM_U16_CAS || id == PAT_CAS_APPEND || id == PAT_COMPACTION;
}

uint32_t pat_own_smem_bytes(const pat_params *p)
{
    switch (p->pattern) {
    case PAT_HISTOGRAM_SHARED:
        return 4u * p->bins;
    case PAT_REDUCE:
        return 4u;
    default:
        return 0;
    }
}

uint32_t pat_smem_bytes(const pat_params *p)
{
    uint32_t own = pat_own_smem_bytes(p);
    return p->smem_per_wg > own ? p->smem_per_wg : own;
}
