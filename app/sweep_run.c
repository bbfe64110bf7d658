/* sweep_run.c - the runner of `sweep` and `study`: a plan's rows as jobs of
 * the worker pool (util/pool.c: forked workers, results back in row
 * order), each finished row to the writers (sweep_write.c) or, failed,
 * reported on stderr, each counted on the progress line (util/progress.h).
 * SIGINT or SIGTERM stops it between rows: what is written ends with a
 * whole row, and it returns 130 or 143. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "../util/intr.h"
#include "../util/out.h"
#include "../util/pool.h"
#include "../util/progress.h"
#include "sweep_int.h"

/* ---- running ----------------------------------------------------------------- */

typedef struct swp_result {
    uint64_t pos;
    int rc;
    atom_stats st;
    char err[CFG_ERR_MAX];
} swp_result;

static void run_one(const swp_plan *p, uint64_t pos, swp_result *r)
{
    swp_row row;
    memset(r, 0, sizeof *r);
    r->pos = pos;
    r->rc = swp_plan_row(p, pos, &row, r->err);
    if (!r->rc)
        r->rc = cli_run_engine(row.cfg, &row.params, row.engine, &r->st, r->err);
}

/* Writes a finished row, or reports its failure.  Returns its rc. */
static int emit(const swp_plan *p, const swp_run_opts *o, swp_writer *w, const swp_result *r, int *write_failed)
{
    swp_row row;
    char err[CFG_ERR_MAX], d[1024];
    if (swp_plan_row(p, r->pos, &row, err)) {
        cli_error(o->cmd, "%s", err);
        return 2;
    }
    if (r->rc) {
        swp_row_describe(p, &row, d, sizeof d);
        cli_error(o->cmd, "%s: %s", d, r->err);
        return r->rc;
    }
    for (int i = 0; i < w->nouts; i++)
        if (w->outs[i].f == stdout)
            prog_stdout();
    if (swp_writer_row(w, &row, &r->st))
        *write_failed = 1;
    for (int i = 0; i < w->nouts; i++)
        *write_failed |= ferror(w->outs[i].f) != 0;
    return 0;
}

/* The rows as pool jobs (pool.c runs them on the workers). */
typedef struct swp_jobs {
    const swp_plan *p;
    const swp_run_opts *o;
    swp_writer *w;
    int write_failed, worst;
} swp_jobs;

static void job_run(void *ctx, uint64_t pos, void *result)
{
    run_one(((swp_jobs *)ctx)->p, pos, result);
}

static int job_done(void *ctx, uint64_t pos, void *result)
{
    swp_jobs *j = ctx;
    (void)pos;
    int r = emit(j->p, j->o, j->w, result, &j->write_failed);
    if (j->write_failed) /* an output that fails now would lose every row after */
        return 1;
    if (!r)
        return 0;
    j->worst = j->worst > r ? j->worst : r;
    return !j->o->keep_going;
}

static void job_describe(void *ctx, uint64_t pos, char *buf, size_t len)
{
    swp_jobs *j = ctx;
    swp_row row;
    char err[CFG_ERR_MAX];
    if (!swp_plan_row(j->p, pos, &row, err))
        swp_row_describe(j->p, &row, buf, len);
}

int swp_run(const swp_plan *p, const swp_run_opts *o, const swp_output *outs, int nouts)
{
    swp_writer w;
    swp_jobs j = { p, o, &w, 0, 0 };
    pool_ops ops = { sizeof(swp_result), job_run, job_done, job_describe, o->cmd, "rows" };
    /* a signal stops the rows between two of them (util/intr.h) */
    int held = intr_hold();
    int begun = swp_writer_begin(&w, p, outs, nouts); /* -1: no memory for the JSON, which is then missing */
    int rc = pool_run(&ops, &j, swp_plan_count(p), o->jobs, o->progress);
    int failed = swp_writer_end(&w, !intr_pending()) || j.write_failed || begun;
    intr_release(held);
    if (intr_pending()) {
        intr_report();
        return intr_status();
    }
    if (failed) {
        /* stdout's failure is told here; a file's by whoever closes it */
        for (int i = 0; i < nouts; i++)
            if (outs[i].f == stdout)
                out_stdout_failed(o->cmd);
        rc = rc > 1 ? rc : 1;
    }
    if (j.worst && o->keep_going)
        j.worst = 1; /* some rows are missing: the sweep as a whole failed */
    return rc > j.worst ? rc : j.worst;
}
