/* baseline.c - a cost-table baseline made from today's export, written,
 * and read back (baseline.h); the comparison is baseline_compare.c's.
 *
 * One row of the innermost axis a line rather than one cell a line: a
 * table holds ~726,000 GPU cells, which one a line would make ~35 MB a
 * GPU; a row keeps a file near the export's own size and a moved formula
 * still shows as the lines it touched. */
#include "baseline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../util/lines.h"
#include "../util/num.h"

static const char *const column_names[BL_COLUMNS] = { "gpu_us", "cpu_us" };

const char *bl_column_name(int column)
{
    return (unsigned)column < BL_COLUMNS ? column_names[column] : "?";
}

/* Grows *arr (of *n, room *cap) to hold one more; 0, or -1. */
static int grow(void **arr, size_t size, size_t n, size_t *cap)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 256;
    void *p = realloc(*arr, c * size);
    if (!p)
        return -1;
    *arr = p;
    *cap = c;
    return 0;
}

static const bl_axis *axis_of(const bl_table *t, int pattern, int column)
{
    for (int i = 0; i < t->naxes; i++)
        if (t->axes[i].pattern == pattern && t->axes[i].column == column)
            return &t->axes[i];
    return NULL;
}

void bl_cell_label(const bl_table *t, const bl_row *r, int j, char *buf, size_t len)
{
    const bl_axis *a = axis_of(t, r->pattern, r->column);
    char v[48] = "?";
    if (a && j < a->count)
        cfg_format_exact(v, sizeof v, a->values[j]);
    snprintf(buf, len, "%s%s%s %s=%s", pat_name((enum pat_id)r->pattern), *r->key ? " " : "", r->key,
             a ? a->name : "?", v);
}

/* A config string goes on one line of the file, so it may hold no control
 * character. */
static int one_line(const char *what, const char *s, char err[CFG_ERR_MAX])
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f) {
            snprintf(err, CFG_ERR_MAX, "%s holds a control character: a baseline cannot record it", what);
            return -1;
        }
    return 0;
}

static int add_kv(bl_table *b, size_t *cap, const char *side, const char *key, const char *value)
{
    if (grow((void **)&b->config, sizeof *b->config, b->nconfig, cap))
        return -1;
    bl_kv *kv = &b->config[b->nconfig];
    snprintf(kv->side, sizeof kv->side, "%s", side);
    kv->key = strdup(key);
    kv->value = strdup(value);
    if (!kv->key || !kv->value) {
        free(kv->key);
        free(kv->value);
        return -1;
    }
    b->nconfig++;
    return 0;
}

static int config_of(const exp_table *t, bl_table *b, char err[CFG_ERR_MAX])
{
    size_t n, cap = 0;
    char key[160], val[256];
    const cfg_option *go = cfg_options(&n);
    for (size_t i = 0; i < n; i++) {
        snprintf(key, sizeof key, "%s.%s", go[i].section, go[i].key);
        cfg_format(&t->gpu, &go[i], val, sizeof val);
        if (one_line(key, val, err))
            return -1;
        if (add_kv(b, &cap, "gpu", key, val))
            goto oom;
    }
    const cpu_option *co = cpu_options(&n);
    for (size_t i = 0; i < n; i++) {
        snprintf(key, sizeof key, "%s.%s", co[i].section, co[i].key);
        cpu_format(&t->cpu, &co[i], val, sizeof val);
        if (one_line(key, val, err))
            return -1;
        if (add_kv(b, &cap, "cpu", key, val))
            goto oom;
    }
    return 0;
oom:
    snprintf(err, CFG_ERR_MAX, "out of memory");
    return -1;
}

/* The rows of one grid: the axes ax[0..na-1] of ep (row-major, the last
 * fastest), the cells or the host cells by column. */
static int grid_rows(const exp_pattern *ep, int column, const int *ax, int na, bl_table *b, size_t *cap)
{
    const exp_axis *inner = &ep->axes[ax[na - 1]];
    size_t total = 1;
    for (int k = 0; k < na; k++)
        total *= (size_t)ep->axes[ax[k]].count;
    bl_axis *ba = &b->axes[b->naxes++];
    ba->pattern = (int)ep->pattern;
    ba->column = column;
    snprintf(ba->name, sizeof ba->name, "%s", exp_axis_name(inner->kind));
    ba->count = inner->count;
    memcpy(ba->values, inner->values, (size_t)inner->count * sizeof *inner->values);
    for (size_t first = 0; first < total; first += (size_t)inner->count) {
        if (grow((void **)&b->rows, sizeof *b->rows, b->nrows, cap))
            return -1;
        bl_row *r = &b->rows[b->nrows];
        memset(r, 0, sizeof *r);
        char key[512] = "", v[48];
        size_t rest = first / (size_t)inner->count, used = 0;
        /* the outer axes' indices, last outer axis fastest */
        int idx[EXP_MAX_AXES];
        for (int k = na - 2; k >= 0; k--) {
            size_t c = (size_t)ep->axes[ax[k]].count;
            idx[k] = (int)(rest % c);
            rest /= c;
        }
        for (int k = 0; k < na - 1 && used < sizeof key; k++) {
            cfg_format_exact(v, sizeof v, ep->axes[ax[k]].values[idx[k]]);
            used += (size_t)snprintf(key + used, sizeof key - used, "%s%s=%s", k ? " " : "",
                                     exp_axis_name(ep->axes[ax[k]].kind), v);
        }
        r->pattern = (int)ep->pattern;
        r->column = column;
        r->count = inner->count;
        r->key = strdup(key);
        r->v = malloc((size_t)r->count * sizeof *r->v);
        if (column == BL_GPU_US)
            r->dec = malloc((size_t)r->count + 1);
        b->nrows++;
        if (!r->key || !r->v || (column == BL_GPU_US && !r->dec))
            return -1;
        for (int j = 0; j < r->count; j++) {
            size_t i = first + (size_t)j;
            if (column == BL_GPU_US) {
                r->v[j] = ep->cells[i].gpu_us;
                r->dec[j] = ep->cells[i].decision == DSP_GPU ? 'g' : 'c';
            } else
                r->v[j] = ep->host_cells[i].cpu_us;
        }
        if (r->dec)
            r->dec[r->count] = 0;
        b->cells[column] += (size_t)r->count;
    }
    return 0;
}

int bl_from_export(const exp_table *t, const double *tol, bl_table *out, char err[CFG_ERR_MAX])
{
    bl_table *b = out;
    memset(b, 0, sizeof *b);
    for (int c = 0; c < BL_COLUMNS; c++)
        b->tol[c] = tol ? tol[c] : BL_DEFAULT_TOLERANCE;
    if (one_line("gpu.name", t->gpu.gpu.name, err) || one_line("the config path", t->gpu.path, err) ||
        one_line("the CPU tier's name", t->cpu.name, err) || one_line("the CPU config path", t->cpu.path, err))
        return -1;
    snprintf(b->gpu_name, sizeof b->gpu_name, "%s", t->gpu.gpu.name);
    snprintf(b->gpu_path, sizeof b->gpu_path, "%s", t->gpu.path);
    snprintf(b->gpu_hash, sizeof b->gpu_hash, "%016llx", (unsigned long long)cfg_hash(&t->gpu));
    snprintf(b->cpu_name, sizeof b->cpu_name, "%s", t->cpu.name);
    snprintf(b->cpu_path, sizeof b->cpu_path, "%s", t->cpu.path);
    snprintf(b->cpu_hash, sizeof b->cpu_hash, "%016llx", (unsigned long long)cpu_hash(&t->cpu));
    if (config_of(t, b, err)) {
        bl_free(b);
        return -1;
    }
    size_t cap = 0;
    for (int p = 0; p < t->pattern_count; p++) {
        const exp_pattern *ep = &t->patterns[p];
        int all[EXP_MAX_AXES], host[EXP_MAX_AXES], nh = 0;
        for (int a = 0; a < ep->axis_count; a++) {
            all[a] = a;
            if (!exp_axis_gpu_only(ep->axes[a].kind))
                host[nh++] = a;
        }
        if (grid_rows(ep, BL_GPU_US, all, ep->axis_count, b, &cap) ||
            (nh && grid_rows(ep, BL_CPU_US, host, nh, b, &cap))) {
            snprintf(err, CFG_ERR_MAX, "out of memory");
            bl_free(b);
            return -1;
        }
    }
    return 0;
}

void bl_write(const bl_table *b, FILE *f)
{
    char v[48];
    fprintf(f, "# atomsim cost baseline: every cell of the model's cost table for one GPU config, which\n"
               "# `atomsim check --config CONFIG --baseline FILE` compares with today's (docs/model.md,\n"
               "# section 7, Baselines of the cost table).  A line a row of the innermost axis:\n"
               "# COLUMN PATTERN POINT | VALUES [| DECISIONS, g gpu c cpu], that axis's values on the\n"
               "# pattern's axis: line.  Made by (make baseline-update rewrites the shipped ones):\n"
               "#   atomsim check --config %s", b->gpu_path[0] ? b->gpu_path : "(defaults)");
    if (b->cpu_path[0])
        fprintf(f, " --cpu %s", b->cpu_path);
    fputs(b->overrides, f);
    if (b->tol[0] != BL_DEFAULT_TOLERANCE || b->tol[1] != BL_DEFAULT_TOLERANCE)
        for (int c = 0; c < BL_COLUMNS; c++) {
            cfg_format_double(v, sizeof v, b->tol[c]);
            fprintf(f, "%s%s=%s%%", c ? "," : " --tolerance ", column_names[c], v);
        }
    fprintf(f, " --write-baseline FILE\n");
    fprintf(f, "schema: %s\nschema_version: %d\n", BL_SCHEMA_NAME, BL_SCHEMA_VERSION);
    /* a path line only where there was a file: no trailing blank in a diff */
    fprintf(f, "gpu: %s\n", b->gpu_name);
    if (b->gpu_path[0])
        fprintf(f, "gpu_config_path: %s\n", b->gpu_path);
    fprintf(f, "gpu_config_hash: %s\ncpu: %s\n", b->gpu_hash, b->cpu_name);
    if (b->cpu_path[0])
        fprintf(f, "cpu_config_path: %s\n", b->cpu_path);
    fprintf(f, "cpu_config_hash: %s\ntolerance: ", b->cpu_hash);
    for (int c = 0; c < BL_COLUMNS; c++) {
        cfg_format_double(v, sizeof v, b->tol[c]);
        fprintf(f, "%s%s=%s%%", c ? "," : "", column_names[c], v);
    }
    fputc('\n', f);
    for (size_t i = 0; i < b->nconfig; i++)
        fprintf(f, "config: %s %s = %s\n", b->config[i].side, b->config[i].key, b->config[i].value);
    for (int i = 0; i < b->naxes; i++) {
        const bl_axis *a = &b->axes[i];
        fprintf(f, "axis: %s %s %s", column_names[a->column], pat_name((enum pat_id)a->pattern), a->name);
        for (int j = 0; j < a->count; j++) {
            cfg_format_exact(v, sizeof v, a->values[j]);
            fprintf(f, " %s", v);
        }
        fputc('\n', f);
    }
    for (size_t i = 0; i < b->nrows; i++) {
        const bl_row *r = &b->rows[i];
        fprintf(f, "%s %s%s%s |", column_names[r->column], pat_name((enum pat_id)r->pattern), *r->key ? " " : "",
                r->key);
        for (int j = 0; j < r->count; j++) {
            exp_format_value(v, sizeof v, r->v[j]);
            fprintf(f, " %s", v);
        }
        if (r->dec)
            fprintf(f, " | %s", r->dec);
        fputc('\n', f);
    }
}

void bl_free(bl_table *b)
{
    for (size_t i = 0; i < b->nconfig; i++) {
        free(b->config[i].key);
        free(b->config[i].value);
    }
    for (size_t i = 0; i < b->nrows; i++) {
        free(b->rows[i].key);
        free(b->rows[i].v);
        free(b->rows[i].dec);
    }
    free(b->config);
    free(b->rows);
    memset(b, 0, sizeof *b);
}

int bl_parse_tolerance(const char *s, double *tol, int *given, char err[CFG_ERR_MAX])
{
    char buf[256];
    if (strlen(s) >= sizeof buf) {
        snprintf(err, CFG_ERR_MAX, "tolerance list too long");
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", s);
    char *save = NULL;
    int any = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        size_t len = tok[0] ? strlen(tok) : 0;
        int c = 0;
        if (eq) {
            *eq = 0;
            for (c = 0; c < BL_COLUMNS && strcmp(tok, column_names[c]); c++)
                ;
        }
        if (!eq || c == BL_COLUMNS || len < 3 || tok[len - 1] != '%') {
            snprintf(err, CFG_ERR_MAX, "tolerance '%s': expected gpu_us=P%% or cpu_us=P%% (P a percentage)", s);
            return -1;
        }
        tok[len - 1] = 0;
        double p;
        if (num_parse_range(eq + 1, 0, 1e6, 0, &p)) {
            snprintf(err, CFG_ERR_MAX, "tolerance %s: '%s%%' is not a percentage from 0 to 1e6", tok, eq + 1);
            return -1;
        }
        tol[c] = p;
        if (given)
            given[c] = 1;
        any = 1;
    }
    if (!any) {
        snprintf(err, CFG_ERR_MAX, "tolerance: expected gpu_us=P%% or cpu_us=P%%");
        return -1;
    }
    return 0;
}
