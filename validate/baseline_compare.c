/* baseline_compare.c - today's cost table held to a committed baseline
 * (baseline.h): every cell within its column's tolerance, every decision
 * as it was, the effective config as recorded.  Cells match by pattern and
 * point, not by position, so a grid that grew or shrank (a changed
 * gpu.max_smem_per_wg_bytes) counts the cells on one side only. */
#include "baseline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int row_cmp(const bl_row *a, const bl_row *b)
{
    if (a->column != b->column)
        return a->column - b->column;
    if (a->pattern != b->pattern)
        return a->pattern - b->pattern;
    return strcmp(a->key, b->key);
}

static int row_ptr_cmp(const void *a, const void *b)
{
    return row_cmp(*(const bl_row *const *)a, *(const bl_row *const *)b);
}

static const bl_axis *axis_of(const bl_table *t, int pattern, int column)
{
    for (int i = 0; i < t->naxes; i++)
        if (t->axes[i].pattern == pattern && t->axes[i].column == column)
            return &t->axes[i];
    return NULL;
}

/* The largest move first; equal moves in table order (sorting is not
 * stable, the row's address is). */
static int move_cmp(const void *pa, const void *pb)
{
    const bl_move *a = pa, *b = pb;
    double x = fabs(a->rel), y = fabs(b->rel);
    if (x != y)
        return x > y ? -1 : 1;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    return a->j - b->j;
}

static int push(void **arr, size_t size, size_t *n, size_t *cap, const void *item)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        void *p = realloc(*arr, c * size);
        if (!p)
            return -1;
        *arr = p;
        *cap = c;
    }
    memcpy((char *)*arr + *n * size, item, size);
    (*n)++;
    return 0;
}

static const char *value_of(const bl_table *t, const char *side, const char *key)
{
    for (size_t i = 0; i < t->nconfig; i++)
        if (!strcmp(t->config[i].side, side) && !strcmp(t->config[i].key, key))
            return t->config[i].value;
    return NULL;
}

static int compare_config(const bl_table *base, const bl_table *cur, bl_result *res)
{
    size_t cap = 0;
    for (size_t i = 0; i < cur->nconfig; i++) {
        const bl_kv *kv = &cur->config[i];
        const char *was = value_of(base, kv->side, kv->key);
        if (was && !strcmp(was, kv->value))
            continue;
        bl_keydiff d = { kv->side, kv->key, was, kv->value };
        if (push((void **)&res->keys, sizeof d, &res->nkeys, &cap, &d))
            return -1;
    }
    for (size_t i = 0; i < base->nconfig; i++) {
        const bl_kv *kv = &base->config[i];
        if (value_of(cur, kv->side, kv->key))
            continue;
        bl_keydiff d = { kv->side, kv->key, kv->value, NULL };
        if (push((void **)&res->keys, sizeof d, &res->nkeys, &cap, &d))
            return -1;
    }
    return 0;
}

/* 1 when v moved from b past tol percent; *rel the move in percent. */
static int moved(double b, double v, double tol, double *rel)
{
    if (b == v) {
        *rel = 0;
        return 0;
    }
    *rel = b != 0 ? (v - b) / fabs(b) * 100 : (v > b ? INFINITY : -INFINITY);
    return fabs(*rel) > tol;
}

static int compare_rows(const bl_table *base, const bl_table *cur, bl_result *res)
{
    size_t mcap = 0, fcap = 0, matched = 0;
    const bl_row **idx = malloc((base->nrows ? base->nrows : 1) * sizeof *idx);
    if (!idx)
        return -1;
    for (size_t i = 0; i < base->nrows; i++)
        idx[i] = &base->rows[i];
    qsort(idx, base->nrows, sizeof *idx, row_ptr_cmp);
    for (size_t i = 0; i < cur->nrows; i++) {
        const bl_row *r = &cur->rows[i], *key = r;
        bl_summary *s = &res->per[r->pattern][r->column];
        s->cells += (size_t)r->count;
        res->cells[r->column] += (size_t)r->count;
        const bl_row **hit = bsearch(&key, idx, base->nrows, sizeof *idx, row_ptr_cmp);
        const bl_axis *ca = axis_of(cur, r->pattern, r->column), *ba = axis_of(base, r->pattern, r->column);
        if (!hit || !ca || !ba) {
            res->only_cur += (size_t)r->count;
            continue;
        }
        const bl_row *b = *hit;
        for (int j = 0; j < r->count; j++) {
            int k = 0;
            while (k < ba->count && (ba->values[k] != ca->values[j] || strcmp(ba->name, ca->name)))
                k++;
            if (k == ba->count || k >= b->count) {
                res->only_cur++;
                continue;
            }
            matched++;
            double rel;
            res->changed[r->column] += b->v[k] != r->v[j];
            if (moved(b->v[k], r->v[j], res->tol[r->column], &rel)) {
                bl_move m = { r, j, b->v[k], r->v[j], rel };
                if (push((void **)&res->moves, sizeof m, &res->nmoves, &mcap, &m))
                    goto oom;
                res->moved[r->column]++;
                s->moved++;
                if (rel > s->up)
                    s->up = rel;
                if (rel < s->down)
                    s->down = rel;
            }
            if (r->dec && b->dec && r->dec[j] != b->dec[k]) {
                bl_flip f = { r, j, b->dec[k], r->dec[j], b->v[k], r->v[j] };
                if (push((void **)&res->flips, sizeof f, &res->nflips, &fcap, &f))
                    goto oom;
                if (f.to == 'c')
                    s->to_cpu++;
                else
                    s->to_gpu++;
            }
        }
    }
    res->only_base = base->cells[0] + base->cells[1] - matched;
    free(idx);
    return 0;
oom:
    free(idx);
    return -1;
}

int bl_compare(const bl_table *base, const bl_table *cur, const double *tol, bl_result *res)
{
    memset(res, 0, sizeof *res);
    for (int c = 0; c < BL_COLUMNS; c++)
        res->tol[c] = tol[c];
    if (compare_config(base, cur, res) || compare_rows(base, cur, res)) {
        bl_result_free(res);
        return -1;
    }
    if (res->nmoves) /* qsort takes no null array, even empty */
        qsort(res->moves, res->nmoves, sizeof *res->moves, move_cmp);
    res->drift = res->nmoves || res->nflips || res->nkeys || res->only_base || res->only_cur;
    return 0;
}

void bl_result_free(bl_result *res)
{
    free(res->moves);
    free(res->flips);
    free(res->keys);
    memset(res, 0, sizeof *res);
}
