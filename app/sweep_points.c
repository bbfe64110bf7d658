/* sweep_points.c - --points and a study's `points =`: the explicit points of
 * a CSV file (a dataset's rows) as one axis named "points", each value a
 * point's pattern flags. */
#include "sweep_int.h"

#include <stdlib.h>
#include <string.h>

#include "../util/csv.h"
#include "../util/lines.h"

/* ---- points ------------------------------------------------------------ */

int swp_set_points(swp_spec *s, int grid, const char *path, char err[CFG_ERR_MAX])
{
    enum { MAXF = 64 };
    lin_reader in;
    char *fields[MAXF];
    const char *keys[MAXF];
    int col[MAXF], ncol = 0, lineno = 0, have_pattern = 0;
    swp_axis ax = { 0 };
    size_t cap = 0;
    cli_args args0;
    cli_args_init(&args0);
    /* bounded: /dev/zero or a directory is refused, a long line or a NUL
     * byte named by its line rather than read in pieces */
    if (lin_open_as(&in, path, "points", LIN_MAX_LINE, err, CFG_ERR_MAX))
        return -1;
    int got, is_open = 1;
    snprintf(ax.key, sizeof ax.key, "points");
    while ((got = lin_next(&in, err, CFG_ERR_MAX)) > 0) {
        lineno = (int)in.lineno;
        char *t = swp_trim(in.line);
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
            if (swp_check_pattern_value(&args0, col[i], keys[i], fields[i], msg)) {
                snprintf(err, CFG_ERR_MAX, "%s:%d: %s", path, lineno, msg);
                goto fail;
            }
            v->a[v->count] = (swp_assign){ col[i], NULL, swp_dupstr(fields[i]) };
            if (!v->a[v->count++].text)
                goto oom;
        }
    }
    lin_close(&in);
    is_open = 0;
    if (got < 0)
        goto fail;
    if (!ax.count) {
        snprintf(err, CFG_ERR_MAX, "%s: no points", path);
        goto fail;
    }
    return swp_spec_put_axis(s, grid, &ax, err);
oom:
    snprintf(err, CFG_ERR_MAX, "out of memory");
fail:
    if (is_open)
        lin_close(&in);
    swp_axis_free(&ax);
    return -1;
}
