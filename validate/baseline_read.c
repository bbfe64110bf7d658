/* baseline_read.c - reads a cost-table baseline (baseline.h) back, and
 * refuses, in one line, a file of another format, schema or version, or
 * one that breaks its own layout. */
#include "baseline.h"

#include <stdlib.h>
#include <string.h>

#include "../util/lines.h"
#include "../util/num.h"

typedef struct reader {
    const char *path;
    unsigned long lineno;
    bl_table *b;
    size_t cap_rows, cap_config;
    char *err;
} reader;

static int fail(reader *rd, const char *why, const char *what)
{
    snprintf(rd->err, CFG_ERR_MAX, "%s:%lu: %s%s%.60s%s", rd->path, rd->lineno, why, what ? " '" : "",
             what ? what : "", what ? "'" : "");
    return -1;
}

static int column_of(const char *s)
{
    for (int c = 0; c < BL_COLUMNS; c++)
        if (!strcmp(s, bl_column_name(c)))
            return c;
    return -1;
}

static int pattern_of(const char *s)
{
    enum pat_id id;
    return pat_from_name(s, &id) ? -1 : (int)id;
}

/* "axis: COLUMN PATTERN NAME V V ..." */
static int read_axis(reader *rd, char *s)
{
    char *save = NULL, *col = strtok_r(s, " ", &save), *pat = strtok_r(NULL, " ", &save),
         *name = strtok_r(NULL, " ", &save);
    int c = col ? column_of(col) : -1, p = pat ? pattern_of(pat) : -1;
    if (c < 0 || p < 0 || !name || strlen(name) >= sizeof rd->b->axes[0].name)
        return fail(rd, "expected axis: COLUMN PATTERN NAME VALUES", NULL);
    if (rd->b->naxes == 2 * PAT_COUNT)
        return fail(rd, "too many axis lines", NULL);
    for (int i = 0; i < rd->b->naxes; i++)
        if (rd->b->axes[i].pattern == p && rd->b->axes[i].column == c)
            return fail(rd, "axis given twice for", pat);
    bl_axis *a = &rd->b->axes[rd->b->naxes];
    memset(a, 0, sizeof *a);
    a->pattern = p;
    a->column = c;
    snprintf(a->name, sizeof a->name, "%s", name);
    for (char *v = strtok_r(NULL, " ", &save); v; v = strtok_r(NULL, " ", &save)) {
        if (a->count == EXP_MAX_VALUES)
            return fail(rd, "too many axis values", NULL);
        if (num_parse_double(v, &a->values[a->count++]))
            return fail(rd, "not a number:", v);
    }
    if (!a->count)
        return fail(rd, "an axis without values", NULL);
    rd->b->naxes++;
    return 0;
}

static const bl_axis *find_axis(const bl_table *b, int pattern, int column)
{
    for (int i = 0; i < b->naxes; i++)
        if (b->axes[i].pattern == pattern && b->axes[i].column == column)
            return &b->axes[i];
    return NULL;
}

/* "COLUMN PATTERN [KEY] | V V ... [| DECISIONS]" */
static int read_row(reader *rd, int column, char *s)
{
    char *bar = strstr(s, " |");
    if (!bar)
        return fail(rd, "expected COLUMN PATTERN POINT | VALUES", NULL);
    *bar = 0;
    char *vals = bar + 2, *decs = strstr(vals, " |");
    if (decs) {
        *decs = 0;
        decs += 2;
        while (*decs == ' ')
            decs++;
    }
    char *key = strchr(s, ' ');
    if (key)
        *key++ = 0;
    int p = pattern_of(s);
    if (p < 0)
        return fail(rd, "unknown pattern", s);
    const bl_axis *a = find_axis(rd->b, p, column);
    if (!a)
        return fail(rd, "a row before its pattern's axis: line", NULL);
    if (!decs != (column != BL_GPU_US))
        return fail(rd, column == BL_GPU_US ? "a gpu_us row without decisions" : "a cpu_us row with decisions", NULL);
    bl_table *b = rd->b;
    if (b->nrows == rd->cap_rows) {
        size_t c = rd->cap_rows ? 2 * rd->cap_rows : 1024;
        bl_row *nr = realloc(b->rows, c * sizeof *nr);
        if (!nr)
            return fail(rd, "out of memory", NULL);
        b->rows = nr;
        rd->cap_rows = c;
    }
    bl_row *r = &b->rows[b->nrows];
    memset(r, 0, sizeof *r);
    r->pattern = p;
    r->column = column;
    r->key = strdup(key ? key : "");
    r->v = malloc((size_t)a->count * sizeof *r->v);
    b->nrows++;
    if (!r->key || !r->v)
        return fail(rd, "out of memory", NULL);
    char *save = NULL;
    for (char *v = strtok_r(vals, " ", &save); v; v = strtok_r(NULL, " ", &save)) {
        if (r->count == a->count)
            return fail(rd, "more values than the axis has", NULL);
        if (num_parse_double(v, &r->v[r->count++]))
            return fail(rd, "not a number:", v);
    }
    if (r->count != a->count)
        return fail(rd, "fewer values than the axis has", NULL);
    if (decs) {
        if (strlen(decs) != (size_t)a->count || strspn(decs, "gc") != (size_t)a->count)
            return fail(rd, "expected one decision a cell, g or c:", decs);
        if (!(r->dec = strdup(decs)))
            return fail(rd, "out of memory", NULL);
    }
    b->cells[column] += (size_t)r->count;
    return 0;
}

/* "config: SIDE SECTION.KEY = VALUE" */
static int read_config(reader *rd, char *s)
{
    char *eq = strstr(s, " = ");
    if (strncmp(s, "gpu ", 4) && strncmp(s, "cpu ", 4))
        return fail(rd, "expected config: gpu|cpu SECTION.KEY = VALUE", NULL);
    if (!eq)
        return fail(rd, "expected config: gpu|cpu SECTION.KEY = VALUE", NULL);
    *eq = 0;
    s[3] = 0;
    bl_table *b = rd->b;
    if (b->nconfig == rd->cap_config) {
        size_t c = rd->cap_config ? 2 * rd->cap_config : 128;
        bl_kv *n = realloc(b->config, c * sizeof *n);
        if (!n)
            return fail(rd, "out of memory", NULL);
        b->config = n;
        rd->cap_config = c;
    }
    bl_kv *kv = &b->config[b->nconfig];
    snprintf(kv->side, sizeof kv->side, "%s", s);
    kv->key = strdup(s + 4);
    kv->value = strdup(eq + 3);
    b->nconfig++;
    if (!kv->key || !kv->value)
        return fail(rd, "out of memory", NULL);
    return 0;
}

static int read_tolerance(reader *rd, const char *s)
{
    char why[CFG_ERR_MAX];
    int given[BL_COLUMNS] = { 0 };
    if (bl_parse_tolerance(s, rd->b->tol, given, why))
        return fail(rd, why, NULL);
    for (int c = 0; c < BL_COLUMNS; c++)
        if (!given[c])
            return fail(rd, "the tolerance line names no tolerance for", bl_column_name(c));
    return 0;
}

static int copy_field(reader *rd, char *dst, size_t len, const char *s)
{
    if (strlen(s) >= len)
        return fail(rd, "value too long", NULL);
    memcpy(dst, s, strlen(s) + 1);
    return 0;
}

/* One line after the schema's two. */
static int read_line(reader *rd, char *s)
{
    bl_table *b = rd->b;
    static const char *const heads[] = { "gpu: ",           "gpu_config_path: ", "gpu_config_hash: ",
                                         "cpu: ",           "cpu_config_hash: ", "tolerance: ",
                                         "config: ",        "axis: ",            "cpu_config_path: " };
    for (int h = 0; h < 9; h++) {
        size_t n = strlen(heads[h]);
        if (strncmp(s, heads[h], n))
            continue;
        char *v = s + n;
        switch (h) {
        case 0: return copy_field(rd, b->gpu_name, sizeof b->gpu_name, v);
        case 1: return copy_field(rd, b->gpu_path, sizeof b->gpu_path, v);
        case 2: return copy_field(rd, b->gpu_hash, sizeof b->gpu_hash, v);
        case 3: return copy_field(rd, b->cpu_name, sizeof b->cpu_name, v);
        case 4: return copy_field(rd, b->cpu_hash, sizeof b->cpu_hash, v);
        case 5: return read_tolerance(rd, v);
        case 6: return read_config(rd, v);
        case 8: return copy_field(rd, b->cpu_path, sizeof b->cpu_path, v);
        default: return read_axis(rd, v);
        }
    }
    for (int c = 0; c < BL_COLUMNS; c++) {
        size_t n = strlen(bl_column_name(c));
        if (!strncmp(s, bl_column_name(c), n) && s[n] == ' ')
            return read_row(rd, c, s + n + 1);
    }
    return fail(rd, "not a line of a baseline:", s);
}

int bl_load(const char *path, bl_table *out, char err[CFG_ERR_MAX])
{
    memset(out, 0, sizeof *out);
    for (int c = 0; c < BL_COLUMNS; c++)
        out->tol[c] = -1;
    lin_reader lr;
    if (lin_open_as(&lr, path, "baseline", LIN_MAX_LINE, err, CFG_ERR_MAX))
        return -1;
    reader rd = { .path = path, .b = out, .err = err };
    char buf[LIN_MAX_LINE + 1];
    int rc, seen = 0, bad = 0;
    while (!bad && (rc = lin_next(&lr, err, CFG_ERR_MAX)) > 0) {
        rd.lineno = lr.lineno;
        if (lr.len == 0 || lr.line[0] == '#')
            continue;
        memcpy(buf, lr.line, lr.len + 1);
        if (seen == 0) {
            /* the format first: an export's JSON or CSV, a dataset, another file */
            if (strncmp(buf, "schema: ", 8)) {
                snprintf(err, CFG_ERR_MAX,
                         "%s: not an atomsim cost baseline (no 'schema: %s' line first; baselines are made by "
                         "atomsim check --write-baseline)", path, BL_SCHEMA_NAME);
                bad = 1;
            } else if (strcmp(buf + 8, BL_SCHEMA_NAME)) {
                snprintf(err, CFG_ERR_MAX, "%s: schema '%.60s', not %s", path, buf + 8, BL_SCHEMA_NAME);
                bad = 1;
            }
        } else if (seen == 1) {
            double v;
            if (strncmp(buf, "schema_version: ", 16) || num_parse_range(buf + 16, 0, 1e9, NUM_INTEGER, &v)) {
                fail(&rd, "expected schema_version: N", NULL);
                bad = 1;
            } else if (v != BL_SCHEMA_VERSION) {
                snprintf(err, CFG_ERR_MAX, "%s: schema_version %.0f; this atomsim reads %s version %d", path, v,
                         BL_SCHEMA_NAME, BL_SCHEMA_VERSION);
                bad = 1;
            }
        } else
            bad = read_line(&rd, buf) != 0;
        seen++;
    }
    lin_close(&lr);
    if (!bad && rc < 0)
        bad = 1;
    if (!bad && seen < 2) {
        snprintf(err, CFG_ERR_MAX, "%s: not an atomsim cost baseline (%s)", path,
                 seen ? "no schema_version line" : "no schema line");
        bad = 1;
    }
    if (!bad && (!out->gpu_name[0] || out->tol[0] < 0 || !out->nrows)) {
        snprintf(err, CFG_ERR_MAX, "%s: an incomplete baseline (%s)", path,
                 !out->gpu_name[0] ? "no gpu: line" : out->tol[0] < 0 ? "no tolerance: line" : "no cells");
        bad = 1;
    }
    if (bad) {
        bl_free(out);
        return -1;
    }
    return 0;
}
