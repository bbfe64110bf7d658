/* sweep_spec.c - the spec of a sweep or study: its grids and their axes
 * (each value checked as `run` would check it), its configs, -p overrides,
 * --canonical, the config column and the shard. */
#include "sweep_int.h"
#include "datadir.h"

#include <stdlib.h>
#include <string.h>

void swp_axis_free(swp_axis *a)
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
            swp_axis_free(&s->grids[g].axes[i]);
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

/* ---- axes --------------------------------------------------------------- */

/* Checks one pattern-flag value as `run` would, on scratch arguments. */
int swp_check_pattern_value(const cli_args *defaults, int code, const char *key, const char *text,
                            char err[CFG_ERR_MAX])
{
    cli_args a = *defaults;
    char msg[CFG_ERR_MAX];
    if (cli_common_opt(&a, code, text, msg)) {
        snprintf(err, CFG_ERR_MAX, "%s=%s: %s", key, text, msg);
        return -1;
    }
    return 0;
}

/* On a scratch copy of `defaults` (cfg_defaults', made once by the caller). */
static int check_config_value(const cfg_config *defaults, const cfg_option *o, const char *key, const char *text,
                              char err[CFG_ERR_MAX])
{
    cfg_config cfg = *defaults;
    char msg[CFG_ERR_MAX];
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
            swp_axis_free(&g->axes[i]);
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
            if (!(dst->v[i].a[j].text = swp_dupstr(src->v[i].a[j].text)))
                return -1;
        }
    }
    return 0;
}

/* Puts `ax` into grid `grid`, or a copy into every grid for -1. */
int swp_spec_put_axis(swp_spec *s, int grid, swp_axis *ax, char err[CFG_ERR_MAX])
{
    if (grid >= s->grid_count) {
        swp_axis_free(ax);
        snprintf(err, CFG_ERR_MAX, "no grid %d", grid);
        return -1;
    }
    if (grid >= 0)
        return grid_put_axis(&s->grids[grid], ax, err);
    for (int g = 1; g < s->grid_count; g++) {
        swp_axis c;
        if (axis_copy(&c, ax)) {
            swp_axis_free(&c);
            swp_axis_free(ax);
            snprintf(err, CFG_ERR_MAX, "out of memory");
            return -1;
        }
        if (grid_put_axis(&s->grids[g], &c, err)) {
            swp_axis_free(&c);
            swp_axis_free(ax);
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
    int code = swp_pkey_find(key, &canon, NULL);
    const cfg_option *o = code ? NULL : swp_ckey_find(key);
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
    cli_args args0;
    cfg_config cfg0;
    if (code)
        cli_args_init(&args0);
    else
        cfg_defaults(&cfg0);
    for (size_t i = 0; i < n; i++)
        if (code ? swp_check_pattern_value(&args0, code, ax.key, v[i], err)
                 : check_config_value(&cfg0, o, ax.key, v[i], err)) {
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
            swp_axis_free(&ax);
            snprintf(err, CFG_ERR_MAX, "out of memory");
            return -1;
        }
        ax.v[i].count = 1;
        ax.v[i].a[0] = (swp_assign){ code, o, v[i] };
    }
    free(v); /* the texts now belong to the axis */
    return swp_spec_put_axis(s, grid, &ax, err);
}

/* ---- configs and options ----------------------------------------------- */

int swp_add_config(swp_spec *s, const char *path, char err[CFG_ERR_MAX])
{
    if (s->config_count == SWP_MAX_CONFIGS) {
        snprintf(err, CFG_ERR_MAX, "more than %d configs", SWP_MAX_CONFIGS);
        return -1;
    }
    if (!(s->configs[s->config_count] = swp_dupstr(dd_find(path, DD_CONFIG)))) {
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
    if (!(s->overrides[s->override_count] = swp_dupstr(assignment))) {
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
