/* sweep_points.c - --points and a study's `points =`: the explicit points of
 * a CSV file (a dataset's rows) as one axis named "points", each value a
 * point's pattern flags. */
#include "sweep_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../util/csv.h"

/* ---- points ------------------------------------------------------------ */

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
        char *t = swp_trim(line);
        if (!*t || *t == '#')
            continue;
        int nf = csv_split(t, fields, MAXF);
        for (int i = 0; i < nf; i++)
            fields[i] = swp_trim(fields[i]);
        if (!ncol) { /* the header */
            ncol = nf;
            for (int i = 0; i < nf; i++) {
                col[i] = swp_pkey_find(fields[i], &keys[i], NULL);
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
            if (swp_check_pattern_value(col[i], keys[i], fields[i], msg)) {
                snprintf(err, CFG_ERR_MAX, "%s:%d: %s", path, lineno, msg);
                goto fail;
            }
            v->a[v->count] = (swp_assign){ col[i], NULL, swp_dupstr(fields[i]) };
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
    return swp_spec_put_axis(s, grid, &ax, err);
oom:
    snprintf(err, CFG_ERR_MAX, "out of memory");
fail:
    if (f)
        fclose(f);
    swp_axis_free(&ax);
    return -1;
}
