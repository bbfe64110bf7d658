/* baseline_report.c - `atomsim check --baseline`'s report (see
 * baseline_report.h). */
#include "baseline_report.h"

#include <math.h>
#include <string.h>

static void pct(char *buf, size_t len, double rel)
{
    if (isinf(rel))
        snprintf(buf, len, "%s", rel > 0 ? "+inf%" : "-inf%");
    else
        snprintf(buf, len, "%+.2f%%", rel);
}

static void keys(FILE *f, const bl_result *res)
{
    if (!res->nkeys)
        return;
    fprintf(f, "config: %zu key%s differ%s from the baseline's recorded config\n", res->nkeys,
            res->nkeys == 1 ? "" : "s", res->nkeys == 1 ? "s" : "");
    for (size_t i = 0; i < res->nkeys; i++) {
        const bl_keydiff *d = &res->keys[i];
        fprintf(f, "  %s %s: %s -> %s\n", d->side, d->key, d->base ? d->base : "(not in the baseline)",
                d->cur ? d->cur : "(no such key now)");
    }
}

static void moves(FILE *f, const bl_table *cur, const bl_result *res, int show)
{
    char label[640], r[32];
    if (!res->nmoves)
        return;
    size_t n = res->nmoves < (size_t)show ? res->nmoves : (size_t)show;
    fprintf(f, "largest moves (%zu of %zu):\n", n, res->nmoves);
    for (size_t i = 0; i < n; i++) {
        const bl_move *m = &res->moves[i];
        bl_cell_label(cur, m->row, m->j, label, sizeof label);
        pct(r, sizeof r, m->rel);
        fprintf(f, "  %9s  %s  %s: %.6g -> %.6g\n", r, bl_column_name(m->row->column), label, m->base, m->cur);
    }
    if (res->nmoves > n)
        fprintf(f, "  and %zu more\n", res->nmoves - n);
}

static void summary(FILE *f, const bl_result *res)
{
    char up[32], down[32];
    int any = 0;
    for (int p = 0; p < PAT_COUNT; p++)
        for (int c = 0; c < BL_COLUMNS; c++) {
            const bl_summary *s = &res->per[p][c];
            if (!s->moved && !s->to_cpu && !s->to_gpu)
                continue;
            if (!any++)
                fprintf(f, "per pattern:\n  %-20s %-7s %9s %9s %12s %13s %7s %7s\n", "pattern", "column", "moved",
                        "cells", "largest up", "largest down", "to cpu", "to gpu");
            pct(up, sizeof up, s->up);
            pct(down, sizeof down, s->down);
            fprintf(f, "  %-20s %-7s %9zu %9zu %12s %13s %7zu %7zu\n", pat_name((enum pat_id)p), bl_column_name(c),
                    s->moved, s->cells, s->up > 0 ? up : "-", s->down < 0 ? down : "-", s->to_cpu, s->to_gpu);
        }
}

static void flips(FILE *f, const bl_table *cur, const bl_result *res, int show)
{
    char label[640];
    size_t to_cpu = 0;
    if (!res->nflips)
        return;
    for (size_t i = 0; i < res->nflips; i++)
        to_cpu += res->flips[i].to == 'c';
    size_t n = res->nflips < (size_t)show ? res->nflips : (size_t)show;
    fprintf(f, "decisions flipped: %zu (%zu gpu->cpu, %zu cpu->gpu)\n", res->nflips, to_cpu, res->nflips - to_cpu);
    for (size_t i = 0; i < n; i++) {
        const bl_flip *fl = &res->flips[i];
        bl_cell_label(cur, fl->row, fl->j, label, sizeof label);
        fprintf(f, "  %s: %s -> %s (gpu_us %.6g -> %.6g)\n", label, fl->from == 'g' ? "gpu" : "cpu",
                fl->to == 'g' ? "gpu" : "cpu", fl->base_gpu, fl->cur_gpu);
    }
    if (res->nflips > n)
        fprintf(f, "  and %zu more\n", res->nflips - n);
}

void brep_print(FILE *f, const char *path, const bl_table *base, const bl_table *cur, const bl_result *res, int show)
{
    char tol[BL_COLUMNS][32];
    for (int c = 0; c < BL_COLUMNS; c++)
        cfg_format_double(tol[c], sizeof tol[c], res->tol[c]);
    fprintf(f, "baseline %s: %s, config %s (now %s), cpu %s\n", path, base->gpu_name, base->gpu_hash, cur->gpu_hash,
            base->cpu_hash);
    keys(f, res);
    for (int c = 0; c < BL_COLUMNS; c++)
        fprintf(f, "%s: %zu of %zu cells moved past %s%% (%zu moved at all)\n", bl_column_name(c), res->moved[c],
                res->cells[c], tol[c], res->changed[c]);
    if (res->only_base || res->only_cur)
        fprintf(f, "grid: %zu cells only in the baseline, %zu only in today's table\n", res->only_base, res->only_cur);
    moves(f, cur, res, show);
    summary(f, res);
    flips(f, cur, res, show);
    if (res->drift)
        fprintf(f, "drift: the cost table moved from the baseline; if that is meant, rewrite it with\n"
                   "  atomsim check --config %s%s --write-baseline %s%s\n",
                cur->gpu_path[0] ? cur->gpu_path : "CONFIG", cur->overrides, path,
                cur->overrides[0] ? "" : "   (make baseline-update)");
    else
        fprintf(f, "ok: no cell moved past its tolerance, no decision flipped, the config as recorded\n");
}
