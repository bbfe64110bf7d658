/* sweep_plan.c - the plan of a sweep or study: its effective configs
 * (configs x config-key axes, each with its label columns), the decoding of
 * a row index into a row, --canonical's deduplication and the shard (see
 * sweep.h for the order). */
#include "sweep_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- the plan ---------------------------------------------------------- */

typedef struct swp_group {
    cfg_config cfg;
    uint64_t hash;
    int config;                        /* index into the spec's configs (0 for defaults) */
    char *labels;                      /* the CSV columns after the run's, with leading commas */
} swp_group;

typedef struct swp_gplan {
    uint64_t offset, rows, pattern_rows;
    int group_base, cfg_axes, pat_axes;
    const swp_axis *cax[SWP_MAX_AXES], *pax[SWP_MAX_AXES];
} swp_gplan;

struct swp_plan {
    const swp_spec *spec;
    swp_group *groups;
    int group_count;
    swp_gplan grids[SWP_MAX_GRIDS];
    int grid_count;
    uint64_t total, kept, begin, end;
    uint64_t *keep;                    /* --canonical: surviving row indices */
    char config_names[SWP_MAX_CONFIGS][CFG_NAME_MAX];
    int config_label;                  /* the `config` column is written */
    const char *label_keys[SWP_MAX_AXES * SWP_MAX_GRIDS];
    int label_count;
};

/* The name of config i in rows: its file's stem ("configs/h100.ini" ->
 * "h100"), or the path where two stems collide, or "default". */
static void name_configs(swp_plan *p)
{
    const swp_spec *s = p->spec;
    if (!s->config_count) {
        snprintf(p->config_names[0], CFG_NAME_MAX, "default");
        return;
    }
    for (int i = 0; i < s->config_count; i++) {
        const char *b = strrchr(s->configs[i], '/');
        b = b ? b + 1 : s->configs[i];
        const char *dot = strrchr(b, '.');
        int len = dot && dot != b ? (int)(dot - b) : (int)strlen(b);
        snprintf(p->config_names[i], CFG_NAME_MAX, "%.*s", len, b);
    }
    for (int i = 0; i < s->config_count; i++)
        for (int j = 0; j < s->config_count; j++)
            if (i != j && !strcmp(p->config_names[i], p->config_names[j]) && strcmp(s->configs[i], s->configs[j]))
                snprintf(p->config_names[i], CFG_NAME_MAX, "%s", s->configs[i]);
}

static void csv_field(char *buf, size_t len, const char *v)
{
    size_t used = strlen(buf);
    if (!strpbrk(v, ",\"\n")) {
        snprintf(buf + used, len - used, ",%s", v);
        return;
    }
    snprintf(buf + used, len - used, ",\"");
    for (const char *c = v; *c; c++) {
        used = strlen(buf);
        snprintf(buf + used, len - used, *c == '"' ? "\"\"" : "%c", *c);
    }
    used = strlen(buf);
    snprintf(buf + used, len - used, "\"");
}

static int build_groups(swp_plan *p, char err[CFG_ERR_MAX])
{
    const swp_spec *s = p->spec;
    int nconf = s->config_count ? s->config_count : 1;
    cfg_config *base = calloc((size_t)nconf, sizeof *base);
    if (!base) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    for (int c = 0; c < nconf; c++) {
        cfg_defaults(&base[c]);
        if (s->config_count && cfg_load(&base[c], s->configs[c], err))
            goto fail;
        for (int i = 0; i < s->override_count; i++)
            if (cfg_override(&base[c], s->overrides[i], err))
                goto fail;
    }
    /* label columns: config (when asked or several), then every config axis */
    p->config_label = s->config_column || s->config_count > 1;
    for (int g = 0; g < p->grid_count; g++)
        for (int i = 0; i < p->grids[g].cfg_axes; i++) {
            int seen = 0;
            for (int j = 0; j < p->label_count; j++)
                seen |= !strcmp(p->label_keys[j], p->grids[g].cax[i]->key);
            if (!seen)
                p->label_keys[p->label_count++] = p->grids[g].cax[i]->key;
        }
    int total = 0;
    for (int g = 0; g < p->grid_count; g++) {
        uint64_t per = 1;
        for (int i = 0; i < p->grids[g].cfg_axes; i++)
            per *= p->grids[g].cax[i]->count;
        if (per * (uint64_t)nconf + (uint64_t)total > SWP_MAX_GROUPS) {
            snprintf(err, CFG_ERR_MAX, "more than %d effective configs (configs x config-key values)", SWP_MAX_GROUPS);
            goto fail;
        }
        p->grids[g].group_base = total;
        total += (int)per * nconf;
    }
    p->groups = calloc((size_t)total, sizeof *p->groups);
    if (!p->groups) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        goto fail;
    }
    p->group_count = total;
    for (int g = 0; g < p->grid_count; g++) {
        const swp_gplan *gp = &p->grids[g];
        int per = (g + 1 < p->grid_count ? p->grids[g + 1].group_base : total) - gp->group_base;
        per /= nconf;
        for (int k = 0; k < per * nconf; k++) {
            swp_group *gr = &p->groups[gp->group_base + k];
            int c = k / per, rest = k % per;
            char msg[CFG_ERR_MAX], buf[1024] = "";
            gr->cfg = base[c];
            gr->config = c;
            for (int i = gp->cfg_axes - 1; i >= 0; i--) {
                const swp_axis *ax = gp->cax[i];
                const swp_assign *as = &ax->v[rest % (int)ax->count].a[0];
                rest /= (int)ax->count;
                if (cfg_set(&gr->cfg, as->opt, as->text, msg)) {
                    snprintf(err, CFG_ERR_MAX, "%s=%s: %s", ax->key, as->text, msg);
                    goto fail;
                }
            }
            if (cfg_validate(&gr->cfg, msg)) {
                snprintf(err, CFG_ERR_MAX, "config %s: %s", p->config_names[c], msg);
                goto fail;
            }
            gr->hash = cfg_hash(&gr->cfg);
            if (p->config_label)
                csv_field(buf, sizeof buf, p->config_names[c]);
            for (int j = 0; j < p->label_count; j++) {
                char v[128];
                cfg_format(&gr->cfg, swp_ckey_find(p->label_keys[j]), v, sizeof v);
                csv_field(buf, sizeof buf, v);
            }
            if (!(gr->labels = swp_dupstr(buf))) {
                snprintf(err, CFG_ERR_MAX, "out of memory");
                goto fail;
            }
        }
    }
    free(base);
    return 0;
fail:
    free(base);
    return -1;
}

/* Decodes row index r of the whole sweep (before dedupe and shards). */
static int decode(const swp_plan *p, uint64_t r, swp_row *row, char err[CFG_ERR_MAX])
{
    int g = 0;
    while (g + 1 < p->grid_count && r >= p->grids[g + 1].offset)
        g++;
    const swp_gplan *gp = &p->grids[g];
    uint64_t local = r - gp->offset, inner = local % gp->pattern_rows;
    cli_args a;
    char msg[CFG_ERR_MAX];
    cli_args_init(&a);
    row->group = gp->group_base + (int)(local / gp->pattern_rows);
    row->index = r;
    for (int i = gp->pat_axes - 1; i >= 0; i--) {
        const swp_axis *ax = gp->pax[i];
        const swp_value *v = &ax->v[inner % ax->count];
        inner /= ax->count;
        for (int j = 0; j < v->count; j++)
            if (cli_common_opt(&a, v->a[j].code, v->a[j].text, msg)) {
                snprintf(err, CFG_ERR_MAX, "%s: %s", ax->key, msg);
                return 2;
            }
    }
    row->cfg = &p->groups[row->group].cfg;
    row->params = a.params;
    row->engine = a.engine;
    if (p->spec->canonical)
        pat_canonical(&row->params);
    return 0;
}

static int same_point(const swp_plan *p, const swp_row *x, const swp_row *y)
{
    const swp_group *gx = &p->groups[x->group], *gy = &p->groups[y->group];
    const pat_params *a = &x->params, *b = &y->params;
    if (gx->config != gy->config || gx->hash != gy->hash || x->engine != y->engine || a->pattern != b->pattern)
        return 0;
    for (int i = 0; i < PP_COUNT; i++)
        if (!pat_param_same(pat_param_get(i), a, b))
            return 0;
    return 1;
}

static uint64_t point_hash(const swp_plan *p, const swp_row *r)
{
    const pat_params *a = &r->params;
    uint64_t h = p->groups[r->group].hash ^ ((uint64_t)p->groups[r->group].config << 56);
    /* the pattern, each parameter, the engine */
    for (int i = -1; i <= PP_COUNT; i++) {
        double d = i < 0 ? (double)a->pattern : i < PP_COUNT ? pat_param_value(pat_param_get(i), a) : r->engine;
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        h = (h ^ bits) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    return h;
}

/* --canonical: keeps the first row of every distinct point. */
static int dedupe(swp_plan *p, char err[CFG_ERR_MAX])
{
    uint64_t cap = 16;
    while (cap < 2 * p->total)
        cap *= 2;
    uint64_t *table = malloc(cap * sizeof *table);
    p->keep = malloc((p->total ? p->total : 1) * sizeof *p->keep);
    if (!table || !p->keep) {
        free(table);
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    memset(table, 0xff, cap * sizeof *table);
    for (uint64_t r = 0; r < p->total; r++) {
        swp_row row, other;
        if (decode(p, r, &row, err)) {
            free(table);
            return -1;
        }
        uint64_t h = point_hash(p, &row) & (cap - 1);
        int dup = 0;
        for (; table[h] != UINT64_MAX; h = (h + 1) & (cap - 1)) {
            decode(p, table[h], &other, err);
            if (same_point(p, &row, &other)) {
                dup = 1;
                break;
            }
        }
        if (!dup) {
            table[h] = r;
            p->keep[p->kept++] = r;
        }
    }
    free(table);
    return 0;
}

int swp_plan_open(const swp_spec *s, swp_plan **out, char err[CFG_ERR_MAX])
{
    swp_plan *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return 2;
    }
    p->spec = s;
    p->grid_count = s->grid_count;
    name_configs(p);
    uint64_t nconf = s->config_count ? (uint64_t)s->config_count : 1;
    for (int g = 0; g < s->grid_count; g++) {
        const swp_grid *gr = &s->grids[g];
        swp_gplan *gp = &p->grids[g];
        int has_pattern = 0;
        uint64_t rows = nconf;
        gp->pattern_rows = 1;
        for (int i = 0; i < gr->axis_count; i++) {
            const swp_axis *ax = &gr->axes[i];
            if (ax->is_config)
                gp->cax[gp->cfg_axes++] = ax;
            else {
                gp->pax[gp->pat_axes++] = ax;
                gp->pattern_rows *= ax->count;
                has_pattern |= !strcmp(ax->key, "pattern");
                if (!strcmp(ax->key, "points"))
                    for (size_t v = 0; v < ax->count && !has_pattern; v++)
                        for (int j = 0; j < ax->v[v].count; j++)
                            has_pattern |= ax->v[v].a[j].code == CLI_OPT_PATTERN;
            }
            rows *= ax->count;
            if (rows > SWP_MAX_ROWS)
                break;
        }
        if (!has_pattern) {
            snprintf(err, CFG_ERR_MAX, "%s: no pattern (give --pattern, --vary pattern=... or --points)",
                     s->grid_count > 1 ? "a grid" : "the grid");
            goto fail;
        }
        gp->offset = p->total;
        gp->rows = rows;
        p->total += rows;
        if (rows > SWP_MAX_ROWS || p->total > SWP_MAX_ROWS) {
            snprintf(err, CFG_ERR_MAX, "the grid has more than %llu rows", SWP_MAX_ROWS);
            goto fail;
        }
    }
    if (build_groups(p, err))
        goto fail;
    if (s->canonical && dedupe(p, err))
        goto fail;
    p->kept = s->canonical ? p->kept : p->total;
    if (p->total == 0) {
        snprintf(err, CFG_ERR_MAX, "the grid is empty");
        goto fail;
    }
    swp_shard_range(p->kept, s->shard_k, s->shard_n, &p->begin, &p->end);
    *out = p;
    return 0;
fail:
    swp_plan_close(p);
    return 2;
}

void swp_plan_close(swp_plan *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->group_count; i++)
        free(p->groups[i].labels);
    free(p->groups);
    free(p->keep);
    free(p);
}

uint64_t swp_plan_total(const swp_plan *p)
{
    return p->kept;
}

uint64_t swp_plan_count(const swp_plan *p)
{
    return p->end - p->begin;
}

int swp_plan_row(const swp_plan *p, uint64_t pos, swp_row *row, char err[CFG_ERR_MAX])
{
    uint64_t ord = p->begin + pos;
    if (ord >= p->end) {
        snprintf(err, CFG_ERR_MAX, "row %llu is outside the shard", (unsigned long long)pos);
        return 2;
    }
    return decode(p, p->keep ? p->keep[ord] : ord, row, err);
}

void swp_row_describe(const swp_plan *p, const swp_row *r, char *buf, size_t len)
{
    const pat_params *a = &r->params;
    char shown[512];
    size_t u;
    pat_describe(a, shown, sizeof shown);
    snprintf(buf, len, "%s%s", pat_name(a->pattern), shown);
#define ADD(...) (u = strlen(buf), snprintf(buf + u, len - u, __VA_ARGS__))
    ADD(" engine=%s config=%s", r->engine == CLI_ENGINE_MODEL ? "model" : "sim",
        p->config_names[p->groups[r->group].config]);
    for (int j = 0; j < p->label_count; j++) {
        char v[128];
        cfg_format(r->cfg, swp_ckey_find(p->label_keys[j]), v, sizeof v);
        ADD(" %s=%s", p->label_keys[j], v);
    }
#undef ADD
}

/* ---- what the writers need ---------------------------------------------- */

int swp_plan_group_count(const swp_plan *p)
{
    return p->group_count;
}

void swp_plan_label_header(const swp_plan *p, char *buf, size_t len)
{
    buf[0] = 0;
    if (p->config_label)
        csv_field(buf, len, "config");
    for (int j = 0; j < p->label_count; j++)
        csv_field(buf, len, p->label_keys[j]);
}

const char *swp_plan_labels(const swp_plan *p, int group)
{
    return p->groups[group].labels;
}

const char *swp_plan_config_name(const swp_plan *p, int group)
{
    return p->config_names[p->groups[group].config];
}

int swp_plan_label_keys(const swp_plan *p, const char *const **keys)
{
    *keys = p->label_keys;
    return p->label_count;
}
