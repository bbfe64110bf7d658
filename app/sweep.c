/* sweep.c - the grid of a sweep or study: axes over pattern flags and config
 * keys, their value lists and ranges, the configs, and the plan that turns
 * them into an ordered, deduplicated, sharded list of rows (see sweep.h for
 * the order).  Running the rows and writing them is in cmd_sweep.c. */
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- keys ------------------------------------------------------------- */

enum swp_kind { SWP_INT, SWP_REAL, SWP_WORD };

/* A pattern axis's key: pattern, a parameter of the table (by its flag's
 * name, smem-per-wg, or its own, smem_per_wg) or engine.  Returns its
 * option code, with the (static) name the axis takes and its kind, or 0. */
static int pkey_find(const char *key, const char **canon, enum swp_kind *kind)
{
    const pat_param_desc *d = pat_param_find(key);
    const char *c = key;
    enum swp_kind k = SWP_WORD;
    int code = 0;
    if (d) {
        c = d->flag + 2;
        k = d->type == PP_DOUBLE ? SWP_REAL : SWP_INT;
        code = cli_param_opt(d);
    } else if (!strcmp(key, "pattern")) {
        c = "pattern";
        code = CLI_OPT_PATTERN;
    } else if (!strcmp(key, "engine")) {
        c = "engine";
        code = CLI_OPT_ENGINE;
    }
    if (canon)
        *canon = c;
    if (kind)
        *kind = k;
    return code;
}

static const cfg_option *ckey_find(const char *key)
{
    char sec[64];
    const char *dot = strchr(key, '.');
    if (!dot || (size_t)(dot - key) >= sizeof sec)
        return NULL;
    memcpy(sec, key, (size_t)(dot - key));
    sec[dot - key] = 0;
    return cfg_find(sec, dot + 1);
}

/* ---- values ----------------------------------------------------------- */

/* One assignment of an axis value: a pattern flag (code) or a config key. */
typedef struct swp_assign {
    int code;                          /* CLI_OPT_*, or 0 for a config key */
    const cfg_option *opt;
    char *text;
} swp_assign;

typedef struct swp_value {
    int count;
    swp_assign *a;
} swp_value;

typedef struct swp_axis {
    char key[96];
    int is_config;
    size_t count;
    swp_value *v;
} swp_axis;

typedef struct swp_grid {
    swp_axis axes[SWP_MAX_AXES];
    int axis_count;
} swp_grid;

struct swp_spec {
    swp_grid grids[SWP_MAX_GRIDS];
    int grid_count;
    char *configs[SWP_MAX_CONFIGS];
    int config_count;
    char *overrides[CLI_MAX_OVERRIDES];
    int override_count;
    int canonical, config_column;
    unsigned long long shard_k, shard_n;
};

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static void axis_free(swp_axis *a)
{
    for (size_t i = 0; i < a->count; i++) {
        for (int j = 0; j < a->v[i].count; j++)
            free(a->v[i].a[j].text);
        free(a->v[i].a);
    }
    free(a->v);
    memset(a, 0, sizeof *a);
}

int swp_spec_new(swp_spec **out)
{
    swp_spec *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->grid_count = 1;
    s->shard_k = s->shard_n = 1;
    *out = s;
    return 0;
}

void swp_spec_free(swp_spec *s)
{
    if (!s)
        return;
    for (int g = 0; g < s->grid_count; g++)
        for (int i = 0; i < s->grids[g].axis_count; i++)
            axis_free(&s->grids[g].axes[i]);
    swp_clear_configs(s);
    for (int i = 0; i < s->override_count; i++)
        free(s->overrides[i]);
    free(s);
}

int swp_add_grid(swp_spec *s, int *grid, char err[CFG_ERR_MAX])
{
    if (s->grid_count == SWP_MAX_GRIDS) {
        snprintf(err, CFG_ERR_MAX, "more than %d grids", SWP_MAX_GRIDS);
        return -1;
    }
    *grid = s->grid_count++;
    return 0;
}

int swp_grid_count(const swp_spec *s)
{
    return s->grid_count;
}

/* ---- range expansion -------------------------------------------------- */

/* The values of one axis, in order, with a hash set that drops repeats. */
typedef struct strlist {
    char **v;
    size_t n, cap;
    size_t *set;                       /* index + 1 per slot, 0 empty */
    size_t set_cap;
} strlist;

static size_t str_hash(const char *s)
{
    size_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

static int sl_push(strlist *l, const char *s)
{
    if (l->n >= SWP_MAX_AXIS_VALUES)
        return -3;
    if (2 * (l->n + 1) > l->set_cap) { /* grow and rehash */
        size_t cap = l->set_cap ? 2 * l->set_cap : 64;
        size_t *set = calloc(cap, sizeof *set);
        if (!set)
            return -2;
        for (size_t i = 0; i < l->n; i++) {
            size_t h = str_hash(l->v[i]) & (cap - 1);
            while (set[h])
                h = (h + 1) & (cap - 1);
            set[h] = i + 1;
        }
        free(l->set);
        l->set = set;
        l->set_cap = cap;
    }
    size_t h = str_hash(s) & (l->set_cap - 1);
    for (; l->set[h]; h = (h + 1) & (l->set_cap - 1))
        if (!strcmp(l->v[l->set[h] - 1], s))
            return 0; /* a repeated value runs once, where it first appears */
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        char **v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return -2;
        l->v = v;
        l->cap = cap;
    }
    if (!(l->v[l->n] = dupstr(s)))
        return -2;
    l->set[h] = ++l->n;
    return 0;
}

void swp_free_values(char **v, size_t count)
{
    for (size_t i = 0; i < count; i++)
        free(v[i]);
    free(v);
}

/* A number of a range: decimal, 1e6 style, or 2^E. */
static int range_number(const char *s, double *out)
{
    if (!strncmp(s, "2^", 2)) {
        double e;
        if (cli_parse_double(s + 2, &e) || e != floor(e) || e < 0 || e > 63)
            return -1;
        *out = ldexp(1.0, (int)e);
        return 0;
    }
    return cli_parse_double(s, out);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    char *e = s + strlen(s);
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
        *--e = 0;
    return s;
}

/* Expands one element "a..b[:xF|:+S]" into l. */
static int expand_range(const char *key, enum swp_kind kind, char *el, char *dots, strlist *l, char err[CFG_ERR_MAX])
{
    char *lo = el, *hi = dots + 2, *step = strchr(hi, ':');
    double a, b, f = 1;
    int geometric = 0;
    *dots = 0;
    if (step)
        *step++ = 0;
    lo = trim(lo);
    hi = trim(hi);
    if (kind == SWP_WORD) {
        snprintf(err, CFG_ERR_MAX, "%s: a range needs numbers ('%s..%s')", key, lo, hi);
        return -1;
    }
    if (range_number(lo, &a) || range_number(hi, &b)) {
        snprintf(err, CFG_ERR_MAX, "%s: malformed range '%s..%s' (expected a..b, a..b:xF or a..b:+S)", key, lo, hi);
        return -1;
    }
    if (step) {
        step = trim(step);
        if ((step[0] != 'x' && step[0] != '*' && step[0] != '+') || cli_parse_double(step + 1, &f)) {
            snprintf(err, CFG_ERR_MAX, "%s: malformed step ':%s' (expected :xF or :+S)", key, step);
            return -1;
        }
        geometric = step[0] != '+';
    }
    if (kind == SWP_INT && (a != floor(a) || b != floor(b))) {
        snprintf(err, CFG_ERR_MAX, "%s: range '%s..%s' needs integer ends", key, lo, hi);
        return -1;
    }
    if (b < a) {
        snprintf(err, CFG_ERR_MAX, "%s: empty range '%s..%s'", key, lo, hi);
        return -1;
    }
    if (geometric && (f <= 1 || a <= 0)) {
        snprintf(err, CFG_ERR_MAX, "%s: a geometric range needs a factor > 1 and a start > 0", key);
        return -1;
    }
    if (!geometric && f <= 0) {
        snprintf(err, CFG_ERR_MAX, "%s: an arithmetic range needs a step > 0", key);
        return -1;
    }
    double limit = b + fabs(b) * 1e-9 + 1e-12;
    char buf[64], prev[64] = "";
    for (unsigned long long i = 0;; i++) {
        double v = geometric ? a * pow(f, (double)i) : a + (double)i * f;
        if (v > limit)
            break;
        if (kind == SWP_INT)
            snprintf(buf, sizeof buf, "%.0f", fmin(round(v), b));
        else
            snprintf(buf, sizeof buf, "%.12g", v);
        if (!strcmp(buf, prev))
            continue; /* a geometric factor below 2 rounds to repeats */
        snprintf(prev, sizeof prev, "%s", buf);
        int rc = sl_push(l, buf);
        if (rc)
            return rc;
    }
    return 0;
}

static int key_kind(const char *key, enum swp_kind *kind, char err[CFG_ERR_MAX])
{
    if (pkey_find(key, NULL, kind))
        return 0;
    const cfg_option *o = ckey_find(key);
    if (!o) {
        char flags[256] = "pattern";
        for (int i = 0; i < PP_COUNT; i++) {
            size_t u = strlen(flags);
            snprintf(flags + u, sizeof flags - u, " %s", pat_param_get(i)->flag + 2);
        }
        snprintf(err, CFG_ERR_MAX, "unknown key '%s' (pattern flags: %s engine; config keys: see atomsim config)", key,
                 flags);
        return -1;
    }
    *kind = o->type == CFG_DOUBLE ? SWP_REAL : (o->type == CFG_INT || o->type == CFG_BOOL) ? SWP_INT : SWP_WORD;
    return 0;
}

int swp_expand(const char *key, const char *values, char ***out, size_t *count, char err[CFG_ERR_MAX])
{
    enum swp_kind kind;
    strlist l = { 0 };
    int rc = 0;
    if (key_kind(key, &kind, err))
        return -1;
    if (strspn(values, " \t") == strlen(values)) {
        snprintf(err, CFG_ERR_MAX, "%s: no values", key);
        return -1;
    }
    char *copy = dupstr(values);
    if (!copy) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    /* strtok would skip empty elements: walk the commas by hand */
    for (char *el = copy; el && !rc;) {
        char *comma = strchr(el, ',');
        if (comma)
            *comma = 0;
        char *t = trim(el), *dots = strstr(t, "..");
        if (!*t) {
            snprintf(err, CFG_ERR_MAX, "%s: empty value in '%s'", key, values);
            rc = -1;
        } else if (dots)
            rc = expand_range(key, kind, t, dots, &l, err);
        else if (pkey_find(key, NULL, NULL) == CLI_OPT_PATTERN && !strcmp(t, "all")) {
            for (int i = 0; i < PAT_COUNT && !rc; i++)
                rc = sl_push(&l, pat_name((enum pat_id)i));
        } else
            rc = sl_push(&l, t);
        el = comma ? comma + 1 : NULL;
    }
    free(copy);
    free(l.set);
    if (rc == -3)
        snprintf(err, CFG_ERR_MAX, "%s: more than %u values", key, SWP_MAX_AXIS_VALUES);
    if (rc == -2)
        goto oom;
    if (rc) {
        swp_free_values(l.v, l.n);
        return -1;
    }
    *out = l.v;
    *count = l.n;
    return 0;
oom:
    swp_free_values(l.v, l.n);
    snprintf(err, CFG_ERR_MAX, "out of memory");
    return -1;
}

/* ---- axes --------------------------------------------------------------- */

/* Checks one pattern-flag value as `run` would, on scratch arguments. */
static int check_pattern_value(int code, const char *key, const char *text, char err[CFG_ERR_MAX])
{
    cli_args a;
    char msg[CFG_ERR_MAX];
    cli_args_init(&a);
    if (cli_common_opt(&a, code, text, msg)) {
        snprintf(err, CFG_ERR_MAX, "%s=%s: %s", key, text, msg);
        return -1;
    }
    return 0;
}

static int check_config_value(const cfg_option *o, const char *key, const char *text, char err[CFG_ERR_MAX])
{
    cfg_config cfg;
    char msg[CFG_ERR_MAX];
    cfg_defaults(&cfg);
    if (cfg_set(&cfg, o, text, msg)) {
        snprintf(err, CFG_ERR_MAX, "%s=%s: %s", key, text, msg);
        return -1;
    }
    return 0;
}

/* Installs axis `ax` in grid g: in place of an axis with the same key, or
 * appended.  Takes ownership of ax's values. */
static int grid_put_axis(swp_grid *g, swp_axis *ax, char err[CFG_ERR_MAX])
{
    for (int i = 0; i < g->axis_count; i++)
        if (!strcmp(g->axes[i].key, ax->key)) {
            axis_free(&g->axes[i]);
            g->axes[i] = *ax;
            return 0;
        }
    if (g->axis_count == SWP_MAX_AXES) {
        snprintf(err, CFG_ERR_MAX, "more than %d axes", SWP_MAX_AXES);
        return -1;
    }
    g->axes[g->axis_count++] = *ax;
    return 0;
}

static int axis_copy(swp_axis *dst, const swp_axis *src)
{
    *dst = *src;
    dst->v = calloc(src->count, sizeof *dst->v);
    if (!dst->v)
        return -1;
    for (size_t i = 0; i < src->count; i++) {
        dst->v[i].count = src->v[i].count;
        dst->v[i].a = calloc((size_t)src->v[i].count, sizeof *dst->v[i].a);
        if (!dst->v[i].a)
            return -1;
        for (int j = 0; j < src->v[i].count; j++) {
            dst->v[i].a[j] = src->v[i].a[j];
            if (!(dst->v[i].a[j].text = dupstr(src->v[i].a[j].text)))
                return -1;
        }
    }
    return 0;
}

/* Puts `ax` into grid `grid`, or a copy into every grid for -1. */
static int spec_put_axis(swp_spec *s, int grid, swp_axis *ax, char err[CFG_ERR_MAX])
{
    if (grid >= s->grid_count) {
        axis_free(ax);
        snprintf(err, CFG_ERR_MAX, "no grid %d", grid);
        return -1;
    }
    if (grid >= 0)
        return grid_put_axis(&s->grids[grid], ax, err);
    for (int g = 1; g < s->grid_count; g++) {
        swp_axis c;
        if (axis_copy(&c, ax)) {
            axis_free(&c);
            axis_free(ax);
            snprintf(err, CFG_ERR_MAX, "out of memory");
            return -1;
        }
        if (grid_put_axis(&s->grids[g], &c, err)) {
            axis_free(&c);
            axis_free(ax);
            return -1;
        }
    }
    return grid_put_axis(&s->grids[0], ax, err);
}

int swp_set_axis(swp_spec *s, int grid, const char *key, const char *values, char err[CFG_ERR_MAX])
{
    char **v;
    size_t n;
    swp_axis ax = { 0 };
    const char *canon;
    int code = pkey_find(key, &canon, NULL);
    const cfg_option *o = code ? NULL : ckey_find(key);
    if (swp_expand(key, values, &v, &n, err))
        return -1;
    snprintf(ax.key, sizeof ax.key, "%s", canon);
    ax.is_config = !code;
    ax.count = n;
    ax.v = calloc(n, sizeof *ax.v);
    if (!ax.v) {
        swp_free_values(v, n);
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (code ? check_pattern_value(code, ax.key, v[i], err) : check_config_value(o, ax.key, v[i], err)) {
            swp_free_values(v, n);
            free(ax.v);
            return -1;
        }
    for (size_t i = 0; i < n; i++) {
        ax.v[i].a = calloc(1, sizeof *ax.v[i].a);
        if (!ax.v[i].a) {
            for (size_t j = i; j < n; j++)
                free(v[j]);
            free(v);
            axis_free(&ax);
            snprintf(err, CFG_ERR_MAX, "out of memory");
            return -1;
        }
        ax.v[i].count = 1;
        ax.v[i].a[0] = (swp_assign){ code, o, v[i] };
    }
    free(v); /* the texts now belong to the axis */
    return spec_put_axis(s, grid, &ax, err);
}

/* ---- points ------------------------------------------------------------ */

static int split_csv(char *line, char **f, int max)
{
    int n = 0;
    for (char *p = line; p && n < max;) {
        char *c = strchr(p, ',');
        if (c)
            *c = 0;
        f[n++] = trim(p);
        p = c ? c + 1 : NULL;
    }
    return n;
}

int swp_set_points(swp_spec *s, int grid, const char *path, char err[CFG_ERR_MAX])
{
    enum { MAXF = 64 };
    FILE *f = fopen(path, "r");
    char line[4096], *fields[MAXF];
    const char *keys[MAXF];
    int col[MAXF], ncol = 0, lineno = 0, have_pattern = 0;
    swp_axis ax = { 0 };
    size_t cap = 0;
    if (!f) {
        snprintf(err, CFG_ERR_MAX, "%s: cannot open points: %s", path, strerror(errno));
        return -1;
    }
    snprintf(ax.key, sizeof ax.key, "points");
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *t = trim(line);
        if (!*t || *t == '#')
            continue;
        int nf = split_csv(t, fields, MAXF);
        if (!ncol) { /* the header */
            ncol = nf;
            for (int i = 0; i < nf; i++) {
                col[i] = pkey_find(fields[i], &keys[i], NULL);
                have_pattern |= col[i] == CLI_OPT_PATTERN;
            }
            if (!have_pattern) {
                snprintf(err, CFG_ERR_MAX, "%s:%d: the header names no 'pattern' column", path, lineno);
                goto fail;
            }
            continue;
        }
        if (ax.count == cap) {
            cap = cap ? 2 * cap : 64;
            swp_value *v = realloc(ax.v, cap * sizeof *v);
            if (!v)
                goto oom;
            ax.v = v;
        }
        swp_value *v = &ax.v[ax.count++];
        v->count = 0;
        v->a = calloc((size_t)ncol, sizeof *v->a);
        if (!v->a)
            goto oom;
        for (int i = 0; i < ncol && i < nf; i++) {
            if (!col[i] || !*fields[i])
                continue;
            char msg[CFG_ERR_MAX];
            if (check_pattern_value(col[i], keys[i], fields[i], msg)) {
                snprintf(err, CFG_ERR_MAX, "%s:%d: %s", path, lineno, msg);
                goto fail;
            }
            v->a[v->count] = (swp_assign){ col[i], NULL, dupstr(fields[i]) };
            if (!v->a[v->count++].text)
                goto oom;
        }
    }
    fclose(f);
    f = NULL;
    if (!ax.count) {
        snprintf(err, CFG_ERR_MAX, "%s: no points", path);
        goto fail;
    }
    return spec_put_axis(s, grid, &ax, err);
oom:
    snprintf(err, CFG_ERR_MAX, "out of memory");
fail:
    if (f)
        fclose(f);
    axis_free(&ax);
    return -1;
}

/* ---- configs and options ----------------------------------------------- */

int swp_add_config(swp_spec *s, const char *path, char err[CFG_ERR_MAX])
{
    if (s->config_count == SWP_MAX_CONFIGS) {
        snprintf(err, CFG_ERR_MAX, "more than %d configs", SWP_MAX_CONFIGS);
        return -1;
    }
    if (!(s->configs[s->config_count] = dupstr(path))) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    s->config_count++;
    return 0;
}

void swp_clear_configs(swp_spec *s)
{
    for (int i = 0; i < s->config_count; i++)
        free(s->configs[i]);
    s->config_count = 0;
}

int swp_add_override(swp_spec *s, const char *assignment, char err[CFG_ERR_MAX])
{
    if (s->override_count == CLI_MAX_OVERRIDES) {
        snprintf(err, CFG_ERR_MAX, "more than %d -p overrides", CLI_MAX_OVERRIDES);
        return -1;
    }
    if (!(s->overrides[s->override_count] = dupstr(assignment))) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    s->override_count++;
    return 0;
}

void swp_set_canonical(swp_spec *s, int on)
{
    s->canonical = on;
}

void swp_set_config_column(swp_spec *s, int on)
{
    s->config_column = on;
}

int swp_set_shard(swp_spec *s, unsigned long long k, unsigned long long n, char err[CFG_ERR_MAX])
{
    if (n < 1 || k < 1 || k > n || n > 1000000) {
        snprintf(err, CFG_ERR_MAX, "--shard %llu/%llu: expected k/N with 1 <= k <= N <= 1000000", k, n);
        return -1;
    }
    s->shard_k = k;
    s->shard_n = n;
    return 0;
}

int swp_parse_shard(const char *text, unsigned long long *k, unsigned long long *n, char err[CFG_ERR_MAX])
{
    char buf[64], *slash;
    snprintf(buf, sizeof buf, "%s", text);
    slash = strchr(buf, '/');
    if (!slash) {
        snprintf(err, CFG_ERR_MAX, "--shard '%s': expected K/N", text);
        return -1;
    }
    *slash = 0;
    if (cli_parse_u64(buf, k) || cli_parse_u64(slash + 1, n) || *n < 1 || *k < 1 || *k > *n || *n > 1000000) {
        snprintf(err, CFG_ERR_MAX, "--shard '%s': expected K/N with 1 <= K <= N <= 1000000", text);
        return -1;
    }
    return 0;
}

void swp_shard_range(uint64_t rows, unsigned long long k, unsigned long long n, uint64_t *begin, uint64_t *end)
{
    *begin = (k - 1) * rows / n;
    *end = k * rows / n;
}

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
                cfg_format(&gr->cfg, ckey_find(p->label_keys[j]), v, sizeof v);
                csv_field(buf, sizeof buf, v);
            }
            if (!(gr->labels = dupstr(buf))) {
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
        cfg_format(r->cfg, ckey_find(p->label_keys[j]), v, sizeof v);
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
