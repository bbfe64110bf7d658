/* table.c - cost-table loading (cJSON, once) and lookups (plain arrays,
 * no allocation, no parsing: microseconds per call). */
#include "table.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"

enum { T_GPU, T_CPU, T_FRACTION, T_FIELDS };

typedef struct tbl_pattern {
    int present;
    int uses_cas;
    int wg;
    int axis_count;
    enum exp_axis_kind kind[EXP_MAX_AXES];
    int count[EXP_MAX_AXES];
    double *values[EXP_MAX_AXES];
    size_t cells;
    double *field[T_FIELDS];
} tbl_pattern;

struct tbl_table {
    char gpu[CFG_NAME_MAX];
    char hash[24];
    dsp_thresholds th;
    tbl_pattern pat[PAT_COUNT];
};

static char *read_file(const char *path, char err[CFG_ERR_MAX])
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, CFG_ERR_MAX, "%s: cannot open table: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        len += fread(buf + len, 1, cap - len - 1, f);
        if (len < cap - 1)
            break;
        char *grown = realloc(buf, cap *= 2);
        if (!grown) {
            free(buf);
            buf = NULL;
        } else
            buf = grown;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, CFG_ERR_MAX, "%s: cannot read table", path);
        return NULL;
    }
    buf[len] = 0;
    return buf;
}

static int axis_kind(const char *name, enum exp_axis_kind *k)
{
    for (int i = EXP_AXIS_N; i <= EXP_AXIS_ADDRESSES; i++)
        if (!strcmp(name, exp_axis_name((enum exp_axis_kind)i))) {
            *k = (enum exp_axis_kind)i;
            return 0;
        }
    return -1;
}

static double *number_array(const cJSON *a, size_t want)
{
    if (!cJSON_IsArray(a) || (size_t)cJSON_GetArraySize(a) != want)
        return NULL;
    double *v = malloc((want ? want : 1) * sizeof *v);
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a)
    {
        if (!v || !cJSON_IsNumber(e) || !isfinite(e->valuedouble)) {
            free(v);
            return NULL;
        }
        v[i++] = e->valuedouble;
    }
    return v;
}

static int load_pattern(tbl_table *t, const cJSON *p, char err[CFG_ERR_MAX])
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "pattern");
    enum pat_id id;
    if (!cJSON_IsString(name) || pat_from_name(name->valuestring, &id)) {
        snprintf(err, CFG_ERR_MAX, "table: a pattern entry names no known pattern");
        return -1;
    }
    tbl_pattern *tp = &t->pat[id];
    const cJSON *axes = cJSON_GetObjectItemCaseSensitive(p, "axes");
    const cJSON *cells = cJSON_GetObjectItemCaseSensitive(p, "cells");
    const cJSON *fixed = cJSON_GetObjectItemCaseSensitive(p, "fixed");
    const cJSON *wg = cJSON_GetObjectItemCaseSensitive(fixed, "wg");
    if (!cJSON_IsArray(axes) || !cJSON_IsObject(cells) || !cJSON_IsNumber(wg) || cJSON_GetArraySize(axes) < 1 ||
        cJSON_GetArraySize(axes) > EXP_MAX_AXES) {
        snprintf(err, CFG_ERR_MAX, "table: pattern %s lacks axes, cells or fixed.wg", name->valuestring);
        return -1;
    }
    tp->uses_cas = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(p, "uses_cas"));
    tp->wg = wg->valueint;
    tp->cells = 1;
    const cJSON *ax;
    cJSON_ArrayForEach(ax, axes)
    {
        int a = tp->axis_count++;
        const cJSON *an = cJSON_GetObjectItemCaseSensitive(ax, "name");
        const cJSON *av = cJSON_GetObjectItemCaseSensitive(ax, "values");
        if (!cJSON_IsString(an) || axis_kind(an->valuestring, &tp->kind[a]) || !cJSON_IsArray(av) ||
            cJSON_GetArraySize(av) < 1 || !(tp->values[a] = number_array(av, (size_t)cJSON_GetArraySize(av)))) {
            snprintf(err, CFG_ERR_MAX, "table: pattern %s has a malformed axis", name->valuestring);
            return -1;
        }
        tp->count[a] = cJSON_GetArraySize(av);
        for (int i = 1; i < tp->count[a]; i++)
            if (!(tp->values[a][i] > tp->values[a][i - 1]) || (exp_axis_log2(tp->kind[a]) && tp->values[a][0] <= 0)) {
                snprintf(err, CFG_ERR_MAX, "table: pattern %s axis %s is not increasing", name->valuestring, an->valuestring);
                return -1;
            }
        tp->cells *= (size_t)tp->count[a];
    }
    static const char *const fields[T_FIELDS] = { "gpu_us", "cpu_us", "density_fraction" };
    for (int f = 0; f < T_FIELDS; f++)
        if (!(tp->field[f] = number_array(cJSON_GetObjectItemCaseSensitive(cells, fields[f]), tp->cells))) {
            snprintf(err, CFG_ERR_MAX, "table: pattern %s: cells.%s is not %zu numbers", name->valuestring, fields[f],
                     tp->cells);
            return -1;
        }
    tp->present = 1;
    return 0;
}

int tbl_load(const char *path, tbl_table **out, char err[CFG_ERR_MAX])
{
    char *text = read_file(path, err);
    if (!text)
        return -1;
    cJSON *root = cJSON_Parse(text);
    free(text);
    if (!root) {
        snprintf(err, CFG_ERR_MAX, "%s: not valid JSON", path);
        return -1;
    }
    tbl_table *t = calloc(1, sizeof *t);
    int rc = -1;
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
    const cJSON *disp = cJSON_GetObjectItemCaseSensitive(root, "dispatch");
    const cJSON *pats = cJSON_GetObjectItemCaseSensitive(root, "patterns");
    const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(root, "gpu");
    if (!t)
        snprintf(err, CFG_ERR_MAX, "out of memory");
    else if (!cJSON_IsString(schema) || strcmp(schema->valuestring, EXP_SCHEMA_NAME))
        snprintf(err, CFG_ERR_MAX, "%s: not an atomsim cost table (schema is not \"%s\")", path, EXP_SCHEMA_NAME);
    else if (!cJSON_IsNumber(ver) || ver->valuedouble != EXP_SCHEMA_VERSION)
        snprintf(err, CFG_ERR_MAX, "%s: schema version %g, this atomsim reads version %d only", path,
                 cJSON_IsNumber(ver) ? ver->valuedouble : -1.0, EXP_SCHEMA_VERSION);
    else if (!cJSON_IsObject(disp) || !cJSON_IsArray(pats))
        snprintf(err, CFG_ERR_MAX, "%s: no dispatch thresholds or patterns", path);
    else {
        const cJSON *ps = cJSON_GetObjectItemCaseSensitive(disp, "density_penalty_start");
        const cJSON *in = cJSON_GetObjectItemCaseSensitive(disp, "density_inhibit");
        const cJSON *ic = cJSON_GetObjectItemCaseSensitive(disp, "inhibit_cas");
        const cJSON *gn = cJSON_GetObjectItemCaseSensitive(gpu, "name");
        const cJSON *gh = cJSON_GetObjectItemCaseSensitive(gpu, "config_hash");
        if (!cJSON_IsNumber(ps) || !cJSON_IsNumber(in) || !cJSON_IsBool(ic))
            snprintf(err, CFG_ERR_MAX, "%s: dispatch thresholds are malformed", path);
        else {
            t->th.penalty_start = ps->valuedouble;
            t->th.inhibit = in->valuedouble;
            t->th.inhibit_cas = cJSON_IsTrue(ic);
            snprintf(t->gpu, sizeof t->gpu, "%s", cJSON_IsString(gn) ? gn->valuestring : "");
            snprintf(t->hash, sizeof t->hash, "%s", cJSON_IsString(gh) ? gh->valuestring : "");
            rc = 0;
            const cJSON *p;
            cJSON_ArrayForEach(p, pats) if (rc == 0 && load_pattern(t, p, err)) rc = -1;
        }
    }
    cJSON_Delete(root);
    if (rc) {
        tbl_free(t);
        return -1;
    }
    *out = t;
    return 0;
}

void tbl_free(tbl_table *t)
{
    if (!t)
        return;
    for (int i = 0; i < PAT_COUNT; i++) {
        for (int a = 0; a < EXP_MAX_AXES; a++)
            free(t->pat[i].values[a]);
        for (int f = 0; f < T_FIELDS; f++)
            free(t->pat[i].field[f]);
    }
    free(t);
}

const char *tbl_gpu_name(const tbl_table *t)
{
    return t->gpu;
}

const char *tbl_config_hash(const tbl_table *t)
{
    return t->hash;
}

static double query_value(const tbl_query *q, enum exp_axis_kind k)
{
    switch (k) {
    case EXP_AXIS_N: return q->n;
    case EXP_AXIS_SELECTIVITY: return q->selectivity;
    case EXP_AXIS_BINS: return q->bins;
    case EXP_AXIS_HOT: return q->hot;
    default: return q->addresses;
    }
}

/* Bracketing index i (value between v[i] and v[i+1]) and the weight of
 * v[i+1] in the axis's scale; weights outside [0, 1] extrapolate. */
static int bracket(const double *v, int count, double x, int log2_scale, int *i, double *w)
{
    int lo = 0;
    if (count == 1) {
        *i = 0;
        *w = 0;
        return x == v[0] ? 0 : 1;
    }
    while (lo < count - 2 && x >= v[lo + 1]) /* a grid point lands on w = 0: exact */
        lo++;
    double a = v[lo], b = v[lo + 1];
    if (log2_scale)
        *w = (log2(x) - log2(a)) / (log2(b) - log2(a));
    else
        *w = (x - a) / (b - a);
    *i = lo;
    return x < v[0] || x > v[count - 1];
}

static double mix(double a, double b, double w, int log_values)
{
    if (w == 0)
        return a;
    if (w == 1)
        return b;
    if (log_values && a > 0 && b > 0)
        return exp(log(a) + w * (log(b) - log(a)));
    return a + w * (b - a);
}

/* Nested 1-D interpolation, last axis first, over the 2^d corners. */
static double interpolate(const tbl_pattern *tp, const double *field, const int *idx, const double *w)
{
    double corner[1 << EXP_MAX_AXES];
    int d = tp->axis_count, ncorner = 1 << d;
    for (int c = 0; c < ncorner; c++) {
        size_t off = 0;
        for (int a = 0; a < d; a++) {
            int bit = (c >> (d - 1 - a)) & 1;
            int j = idx[a] + (bit && tp->count[a] > 1 ? 1 : 0);
            off = off * (size_t)tp->count[a] + (size_t)j;
        }
        corner[c] = field[off];
    }
    for (int a = d - 1; a >= 0; a--) {
        int half = 1 << a;
        for (int c = 0; c < half; c++)
            corner[c] = mix(corner[2 * c], corner[2 * c + 1], w[a], exp_axis_log2(tp->kind[a]));
    }
    return corner[0];
}

int tbl_lookup(const tbl_table *t, const tbl_query *q, int extrapolate, tbl_answer *a, char err[CFG_ERR_MAX])
{
    if (q->pattern < 0 || q->pattern >= PAT_COUNT || !t->pat[q->pattern].present) {
        snprintf(err, CFG_ERR_MAX, "the table has no pattern '%s'", q->pattern < PAT_COUNT ? pat_name(q->pattern) : "?");
        return -1;
    }
    const tbl_pattern *tp = &t->pat[q->pattern];
    if (q->wg && q->wg != tp->wg) {
        snprintf(err, CFG_ERR_MAX, "the table holds %s at wg=%d only (asked for wg=%d)", pat_name(q->pattern), tp->wg, q->wg);
        return -1;
    }
    int idx[EXP_MAX_AXES];
    double w[EXP_MAX_AXES];
    a->extrapolated = 0;
    for (int ax = 0; ax < tp->axis_count; ax++) {
        double x = query_value(q, tp->kind[ax]);
        int lg = exp_axis_log2(tp->kind[ax]);
        if (lg && !(x > 0)) {
            snprintf(err, CFG_ERR_MAX, "%s=%g: must be positive", exp_axis_name(tp->kind[ax]), x);
            return -1;
        }
        if (bracket(tp->values[ax], tp->count[ax], x, lg, &idx[ax], &w[ax])) {
            if (!extrapolate || tp->count[ax] == 1) {
                snprintf(err, CFG_ERR_MAX, "%s=%g is outside the table's grid [%g, %g] for %s (--extrapolate to go beyond it)",
                         exp_axis_name(tp->kind[ax]), x, tp->values[ax][0], tp->values[ax][tp->count[ax] - 1],
                         pat_name(q->pattern));
                return -1;
            }
            a->extrapolated = 1;
        }
    }
    a->gpu_us = interpolate(tp, tp->field[T_GPU], idx, w);
    a->cpu_us = interpolate(tp, tp->field[T_CPU], idx, w);
    a->density_fraction = interpolate(tp, tp->field[T_FRACTION], idx, w);
    /* the rule export applied, from the table's own thresholds */
    dsp_density d = { 0 };
    d.fraction = a->density_fraction;
    d.atomics = a->density_fraction > 0;
    d.cas = tp->uses_cas;
    a->penalty = d.atomics ? dsp_penalty(d.fraction, &t->th) : 0;
    a->inhibited = dsp_inhibited(&d, &t->th, &a->reason);
    if (a->inhibited)
        a->decision = DSP_CPU;
    else if (a->gpu_us * (1 + a->penalty) <= a->cpu_us) {
        a->decision = DSP_GPU;
        a->reason = DSP_REASON_GPU_FASTER;
    } else {
        a->decision = DSP_CPU;
        a->reason = DSP_REASON_CPU_FASTER;
    }
    return 0;
}
