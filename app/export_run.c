/* export_run.c - `atomsim export`'s error bands and its --engine sim runs,
 * shards, merges and reuse (see export_run.h). */
#include "export_run.h"

#include <stdlib.h>
#include <string.h>

#include "../util/clock.h"
#include "../validate/bands.h"
#include "export_part.h"
#include "sweep.h"

/* The table as tbl_load would read it from its JSON file.  0, or -1 with err. */
static int load_back(const exp_table *t, tbl_table **out, char err[CFG_ERR_MAX])
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) {
        snprintf(err, CFG_ERR_MAX, "out of memory for the table's text");
        return -1;
    }
    int rc = exp_write(t, EXP_JSON, f, err);
    if (fclose(f) && rc == 0) {
        snprintf(err, CFG_ERR_MAX, "out of memory for the table's text");
        rc = -1;
    }
    if (rc == 0)
        rc = tbl_load_text(text, "the table being exported", out, err);
    free(text);
    return rc;
}

/* A dataset is a side's when its provenance says so: a GPU's rows are not
 * cpubench's, and a `# gpu:` line, where they have one, names the table's
 * GPU (the contract datasets' older copies lack it); a CPU tier's come
 * from cpubench with as many workers as the table's tier (its CPU model
 * is not checked: hosts of one kind differ, and the band is meant to hold
 * that).  A band from another machine's rows would be a wrong number that
 * looks right. */
static int side_check(const exp_table *t, enum exp_side side, const char *path, const val_dataset *d,
                      char err[CFG_ERR_MAX])
{
    if (side == EXP_SIDE_GPU) {
        if (!strcmp(d->harness, "cpubench")) {
            snprintf(err, CFG_ERR_MAX, "%s: a cpubench dataset, not a GPU's (--cpu-residuals takes the CPU tier's rows)",
                     path);
            return -1;
        }
        if (d->gpu[0] && strcmp(d->gpu, t->gpu.gpu.name)) {
            snprintf(err, CFG_ERR_MAX, "%s: measured on %s, but the table's GPU is %s (--residuals takes that GPU's rows)",
                     path, d->gpu, t->gpu.gpu.name);
            return -1;
        }
        return 0;
    }
    if (d->gpu[0] || strcmp(d->harness, "cpubench")) {
        snprintf(err, CFG_ERR_MAX, "%s: not a cpubench dataset (--cpu-residuals takes the CPU tier's rows)", path);
        return -1;
    }
    if (!d->workers) {
        snprintf(err, CFG_ERR_MAX, "%s: has no `# workers:` line, so its rows cannot be held to a CPU tier", path);
        return -1;
    }
    if (d->workers != t->cpu.workers) {
        snprintf(err, CFG_ERR_MAX, "%s: measured with %d workers, but the table's CPU tier has %d", path, d->workers,
                 t->cpu.workers);
        return -1;
    }
    return 0;
}

/* The datasets of one side as one, so that a region's quantiles see every
 * row.  0, or -1 with err. */
static int load_side(const exp_table *t, enum exp_side side, const char *const *paths, int npaths, val_dataset *d,
                     char err[CFG_ERR_MAX])
{
    memset(d, 0, sizeof *d);
    for (int k = 0; k < npaths; k++) {
        val_dataset one;
        if (val_dataset_load(paths[k], &one, err)) {
            val_dataset_free(d);
            return -1;
        }
        if (side_check(t, side, paths[k], &one, err)) {
            val_dataset_free(&one);
            val_dataset_free(d);
            return -1;
        }
        val_row *rows = realloc(d->rows, (d->count + one.count + 1) * sizeof *rows);
        if (!rows) {
            val_dataset_free(&one);
            val_dataset_free(d);
            snprintf(err, CFG_ERR_MAX, "out of memory");
            return -1;
        }
        memcpy(rows + d->count, one.rows, one.count * sizeof *rows);
        d->rows = rows;
        d->count += one.count;
        val_dataset_free(&one);
    }
    return 0;
}

int xr_add_bands(exp_table *t, const xr_band_sources *src, char err[CFG_ERR_MAX])
{
    val_dataset d[EXP_SIDES] = { { 0 } };
    int rc = 0;
    for (int s = 0; rc == 0 && s < EXP_SIDES; s++)
        rc = load_side(t, (enum exp_side)s, src->paths[s], src->count[s], &d[s], err);
    /* the bands hold each row to the table's own answer, so the table is
     * read back as a user's lookup would read it */
    tbl_table *lt = NULL;
    if (rc == 0)
        rc = load_back(t, &lt, err);
    for (int s = 0; rc == 0 && s < EXP_SIDES; s++)
        for (int i = 0; rc == 0 && src->count[s] && i < t->pattern_count; i++) {
            exp_band b[EXP_MAX_BANDS];
            int count;
            rc = val_bands(lt, &d[s], t->patterns[i].pattern, (enum exp_side)s, b, &count, err);
            if (rc == 0)
                exp_set_bands(t, t->patterns[i].pattern, (enum exp_side)s, b, count);
        }
    tbl_free(lt);
    for (int s = 0; s < EXP_SIDES; s++)
        val_dataset_free(&d[s]);
    return rc;
}

double xr_now(void)
{
    return clk_now();
}

/* Carries the shard's cells over from parts of r->reuse_config, run under
 * this config's event budget (the budget decides which cells the parts
 * hold times for).  0, or -1 with err. */
static int reuse(const cfg_config *cfg, const xr_request *r, xr_outcome *o, char err[CFG_ERR_MAX])
{
    cfg_config old;
    cfg_defaults(&old);
    if (cfg_load(&old, r->reuse_config, err) || cfg_validate(&old, err))
        return -1;
    old.sim.max_events = cfg->sim.max_events;
    return xs_part_reuse(&o->plan, &old, r->reuse, r->nreuse, o->begin, o->end, &o->reused, err);
}

int xr_sim(const cfg_config *cfg, const cpu_config *cpu, const xr_request *r, xr_outcome *o, char err[CFG_ERR_MAX])
{
    memset(o, 0, sizeof *o);
    if (xs_scope_check(cfg, &r->scope, err))
        return 2;
    if (xs_plan_build(cfg, cpu, &r->scope, &o->plan, err))
        return 1;
    o->planned = 1;
    uint64_t begin = 0, end = o->plan.count;
    if (r->sharded)
        swp_shard_range(o->plan.count, r->shard_k, r->shard_n, &begin, &end);
    o->begin = (size_t)begin;
    o->end = (size_t)end;
    o->started = xr_now();
    if (r->mode == XR_COUNT || r->mode == XR_LIST)
        return 0;
    if (r->nreuse && reuse(cfg, r, o, err))
        return 2;
    if (r->merge ? xs_part_merge(&o->plan, r->parts, r->nparts, err)
                 : xs_run(&o->plan, o->begin, o->end, r->jobs, r->progress, err)) {
        o->quiet = !*err;
        return r->merge ? 2 : 1;
    }
    if (r->mode == XR_TABLE && xs_table(&o->plan, r->anchor, &o->table, err))
        return 1;
    return 0;
}

void xr_outcome_free(xr_outcome *o)
{
    if (o->planned)
        xs_plan_free(&o->plan);
    o->planned = 0;
}

void xr_cost_of(const xr_outcome *o, const exp_table *t, xr_cost *c)
{
    memset(c, 0, sizeof *c);
    c->runs = o->end - o->begin;
    c->reused = o->reused;
    for (size_t i = o->begin; i < o->end; i++) {
        c->cpu_s += o->plan.cells[i].cpu_s;
        c->over_budget += o->plan.cells[i].status == XS_BUDGET;
    }
    for (int k = 0; t && k < t->pattern_count; k++)
        for (size_t i = 0; i < t->patterns[k].cell_count; i++) {
            enum exp_source s = t->patterns[k].cells[i].source;
            c->cells_sim += s == EXP_SOURCE_SIM;
            c->cells_model += s != EXP_SOURCE_SIM;
            c->cells_anchored += s == EXP_SOURCE_ANCHORED;
        }
}
