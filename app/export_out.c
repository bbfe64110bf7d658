/* export_out.c - `atomsim export` after its flags (export_out.h): the
 * checks across flags, the model's table or the simulator's work
 * (export_run.c), the output file, and the cost line on stderr. */
#include "../util/out.h"
#include "export_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../util/out.h"
#include "../util/pool.h"
#include "args.h"
#include "export_part.h"

void xo_args_init(xo_args *x)
{
    memset(x, 0, sizeof *x);
    x->format = EXP_JSON;
    x->jobs = pool_default_jobs();
    x->shard_k = x->shard_n = 1;
    x->max_events = NAN;
    xs_scope_defaults(&x->scope);
    /* the patterns whose model misses its goals against the simulator
     * (docs/accuracy.md, "Model against simulator"): the CAS races */
    for (int id = 0; id < PAT_COUNT; id++)
        if (pat_uses_cas((enum pat_id)id))
            x->anchor |= 1u << id;
}

/* After a writer that returned wrc (0, or failed with err set): the file
 * renamed into place, or removed; stdout checked.  One line on stderr for
 * a failure, naming the I/O error where there was one rather than the
 * writer's guess.  Returns 0 or 1. */
static int write_end(out_file *of, int wrc, char *err)
{
    if (!of) {
        if (out_stdout_failed("export"))
            return 1;
        if (wrc)
            cli_error("export", "%s", err);
        return wrc ? 1 : 0;
    }
    if (wrc) {
        out_failed(of, err, CFG_ERR_MAX);
        out_abort(of);
    } else
        wrc = out_commit(of, err, CFG_ERR_MAX);
    if (wrc)
        cli_error("export", "%s", err);
    return wrc ? 1 : 0;
}

/* Writes the table (with its bands) where --output says.  Takes t. */
static int write_table(exp_table *t, enum exp_format fmt, const char *out_path, const xr_band_sources *bands)
{
    char err[CFG_ERR_MAX];
    if ((bands->count[EXP_SIDE_GPU] || bands->count[EXP_SIDE_CPU]) && xr_add_bands(t, bands, err)) {
        cli_error("export", "%s", err);
        exp_free(t);
        return 2;
    }
    out_file of;
    if (fmt == EXP_CSV && out_path) { /* the provenance beside the CSV, never inside it */
        char meta[4096];
        if (snprintf(meta, sizeof meta, "%s.meta.json", out_path) >= (int)sizeof meta) {
            cli_error("export", "%s: path too long", out_path);
            exp_free(t);
            return 2;
        }
        if (out_open(&of, meta, err, sizeof err)) {
            cli_error("export", "%s", err);
            exp_free(t);
            return 2;
        }
        int mrc = write_end(&of, exp_write(t, EXP_CSV_META, of.f, err), err);
        if (mrc) {
            exp_free(t);
            return mrc;
        }
    }
    if (out_path && out_open(&of, out_path, err, sizeof err)) {
        cli_error("export", "%s", err);
        exp_free(t);
        return 2;
    }
    int rc = exp_write(t, fmt, out_path ? of.f : stdout, err);
    exp_free(t);
    return write_end(out_path ? &of : NULL, rc, err);
}

/* The cost of the simulator's cells on stderr, and, with a table, how many
 * of its cells each engine filled. */
static void report(const xr_cost *c, const xo_args *sa, double wall, int table)
{
    char what[160];
    if (sa->shard_given)
        snprintf(what, sizeof what, "shard %llu/%llu: ", sa->shard_k, sa->shard_n);
    else if (sa->merge)
        snprintf(what, sizeof what, "merged %d parts: ", sa->nparts);
    else
        what[0] = 0;
    fprintf(stderr, "atomsim export: %s%zu simulator runs (%zu over the event budget, filled by the model), %.1f CPU-seconds, %.4f core-hours",
            what, c->runs, c->over_budget, c->cpu_s, c->cpu_s / 3600);
    if (!sa->merge)
        fprintf(stderr, ", %.1f s wall on -j %d", wall, sa->jobs);
    if (sa->nreuse)
        fprintf(stderr, "; %zu of the runs carried over from --reuse (their CPU-seconds are the first run's)", c->reused);
    if (table)
        fprintf(stderr, "; table cells: %zu from the simulator, %zu from the model (%zu of them scaled to their anchor)",
                c->cells_sim, c->cells_model, c->cells_anchored);
    fputc('\n', stderr);
}

/* `export --engine sim`: the count, the cells to run, a part or the table. */
static int export_sim(const cfg_config *cfg, const cpu_config *cpu, const xo_args *sa)
{
    char err[CFG_ERR_MAX];
    xr_request r = {
        .mode = sa->count_only ? XR_COUNT : sa->list ? XR_LIST : sa->shard_given ? XR_PART : XR_TABLE,
        .scope = sa->scope,
        .sharded = sa->shard_given,
        .shard_k = sa->shard_k,
        .shard_n = sa->shard_n,
        .merge = sa->merge,
        .parts = sa->parts,
        .nparts = sa->nparts,
        .reuse_config = sa->reuse_config,
        .reuse = sa->reuse,
        .nreuse = sa->nreuse,
        .anchor = sa->anchor,
        .jobs = sa->jobs,
        .progress = 1,
    };
    xr_outcome o;
    xr_cost c;
    int rc = xr_sim(cfg, cpu, &r, &o, err);
    FILE *f;
    if (rc) {
        if (!o.quiet)
            cli_error("export", "%s", err);
    } else if (r.mode == XR_COUNT) {
        printf("%llu\n", (unsigned long long)(o.end - o.begin));
        rc = out_stdout_failed("export");
    } else if (r.mode != XR_TABLE) { /* a part, or the cells to run */
        out_file of;
        if (sa->out_path && out_open(&of, sa->out_path, err, sizeof err)) {
            cli_error("export", "%s", err);
            rc = 2;
        } else {
            f = sa->out_path ? of.f : stdout;
            int wrc = xs_part_write(&o.plan, o.begin, o.end, sa->shard_k, sa->shard_n, r.mode == XR_PART, f);
            if (wrc)
                snprintf(err, sizeof err, "cannot write the part");
            if (write_end(sa->out_path ? &of : NULL, wrc, err)) {
                rc = 1;
            } else if (r.mode == XR_PART) {
                xr_cost_of(&o, NULL, &c);
                report(&c, sa, xr_now() - o.started, 0);
            }
        }
    } else {
        xr_cost_of(&o, o.table, &c);
        report(&c, sa, xr_now() - o.started, 1);
        rc = write_table(o.table, sa->format, sa->out_path, &sa->bands);
    }
    xr_outcome_free(&o);
    return rc;
}

int xo_check(xo_args *sa, int argc, char **argv, int first)
{
    if (sa->merge)
        sa->sim = 1;
    if (!sa->sim && sa->sim_flags) {
        cli_error("export", "-j, --shard, --max-events, --sim-*, --anchor, --count, --list and --reuse* need --engine sim");
        return 2;
    }
    if (sa->merge && (sa->shard_given || sa->count_only || sa->list)) {
        cli_error("export", "--merge makes the table: it takes no --shard, --count or --list");
        return 2;
    }
    if (sa->merge && first == argc) {
        cli_error("export", "--merge needs the parts (atomsim export --merge PART...)");
        return 2;
    }
    if (!sa->merge && first < argc) {
        cli_error("export", "unexpected argument '%s'", argv[first]);
        return 2;
    }
    if (!sa->reuse_config != !sa->nreuse) {
        cli_error("export", "--reuse-config and --reuse go together: the parts and the config they were made from");
        return 2;
    }
    if (sa->nreuse && sa->merge) {
        cli_error("export", "--merge takes this config's parts: --reuse belongs to the runs that make them");
        return 2;
    }
    if ((sa->shard_given || sa->list) && sa->format_given) {
        cli_error("export", "--format is the table's: a part (--shard) and --list are CSV");
        return 2;
    }
    sa->parts = (const char *const *)argv + first;
    sa->nparts = argc - first;
    return 0;
}

int xo_run(const cfg_config *cfg, const cpu_config *cpu, const xo_args *x)
{
    char err[CFG_ERR_MAX];
    if (x->sim)
        return export_sim(cfg, cpu, x);
    exp_table *t;
    exp_options opts = { x->scope.only, NULL, NULL, 0, 0 };
    if (exp_build(cfg, cpu, &opts, &t, err)) {
        cli_error("export", "%s", err);
        return 1;
    }
    return write_table(t, x->format, x->out_path, &x->bands);
}
