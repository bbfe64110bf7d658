/* export_sim.c - the simulator's cells of a cost table (export_sim.h): the
 * scope, the plan (which cells, in table order), running them on the
 * worker pool, and the table with their times.
 *
 * The plan and the table both come from exp_build, which owns the grid,
 * the shared-memory reuse and the decisions: the plan is one exp_build
 * whose GPU function only records the points in scope, the table a second
 * whose GPU function replays the recorded cells in the same order.  So the
 * grid walk lives in one place and a part can be merged by cell index. */
#include "export_sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"
#include "../util/pool.h"

/* ---- the scope -------------------------------------------------------------- */

void xs_scope_defaults(xs_scope *s)
{
    memset(s, 0, sizeof *s);
    s->max_n = 1ull << 22;
    s->wg_count = 3;
    s->wg[0] = 64;
    s->wg[1] = 256;
    s->wg[2] = 1024;
    s->smem_count = 2;
    s->smem[0] = 0;
    s->smem[1] = 32768;
}

int xs_scope_list(const char *flag, const char *text, double *v, int *count, char err[CFG_ERR_MAX])
{
    char buf[512], *save = NULL;
    if (strlen(text) >= sizeof buf) {
        snprintf(err, CFG_ERR_MAX, "%s: the list is too long", flag);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", text);
    *count = 0;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        unsigned long long x;
        if (cli_parse_u64(t, &x) || x > (1ull << 30)) {
            snprintf(err, CFG_ERR_MAX, "%s '%s': '%s' is not a non-negative integer", flag, text, t);
            return -1;
        }
        /* sorted, each value once: the scope's text (which a merge compares)
         * then does not depend on how the list was written */
        int i = 0;
        while (i < *count && v[i] < (double)x)
            i++;
        if (i < *count && v[i] == (double)x)
            continue;
        if (*count == EXP_MAX_VALUES) {
            snprintf(err, CFG_ERR_MAX, "%s: more than %d values", flag, EXP_MAX_VALUES);
            return -1;
        }
        memmove(&v[i + 1], &v[i], (size_t)(*count - i) * sizeof *v);
        v[i] = (double)x;
        (*count)++;
    }
    if (!*count) {
        snprintf(err, CFG_ERR_MAX, "%s: no values", flag);
        return -1;
    }
    return 0;
}

static int listed(const double *v, int count, double x)
{
    for (int i = 0; i < count; i++)
        if (v[i] == x)
            return 1;
    return 0;
}

/* The table's axis of `kind` for pattern `id`, or NULL. */
static const exp_axis *axis_of(const cfg_config *gpu, enum pat_id id, enum exp_axis_kind kind, exp_axis *axes)
{
    int count;
    if (exp_axes_of(gpu, id, axes, &count))
        return NULL;
    for (int a = 0; a < count; a++)
        if (axes[a].kind == kind)
            return &axes[a];
    return NULL;
}

/* A listed value no cell has would silently simulate nothing: refuse it,
 * naming the grid's values. */
static int check_list(const cfg_config *gpu, const char *flag, enum exp_axis_kind kind, const double *v, int count,
                      char err[CFG_ERR_MAX])
{
    exp_axis axes[EXP_MAX_AXES];
    const exp_axis *ax = axis_of(gpu, PAT_COUNTER, kind, axes);
    for (int i = 0; ax && i < count; i++)
        if (!listed(ax->values, ax->count, v[i])) {
            char grid[400] = "";
            for (int j = 0; j < ax->count; j++) {
                size_t u = strlen(grid);
                snprintf(grid + u, sizeof grid - u, "%s%.0f", j ? "," : "", ax->values[j]);
            }
            snprintf(err, CFG_ERR_MAX, "%s %.0f is not a grid point of the table (%s)", flag, v[i], grid);
            return -1;
        }
    return 0;
}

int xs_scope_check(const cfg_config *gpu, const xs_scope *s, char err[CFG_ERR_MAX])
{
    return check_list(gpu, "--sim-wg", EXP_AXIS_WG, s->wg, s->wg_count, err) ||
                   check_list(gpu, "--sim-smem", EXP_AXIS_SMEM, s->smem, s->smem_count, err)
               ? -1
               : 0;
}

static void append_list(char *buf, size_t len, const char *name, const double *v, int count)
{
    size_t u = strlen(buf);
    snprintf(buf + u, len - u, " %s=", name);
    for (int i = 0; i < count; i++) {
        u = strlen(buf);
        snprintf(buf + u, len - u, "%s%.0f", i ? "," : "", v[i]);
    }
}

void xs_scope_text(const xs_scope *s, char *buf, size_t len)
{
    snprintf(buf, len, "only=");
    if (!s->only)
        snprintf(buf + strlen(buf), len - strlen(buf), "all");
    for (int id = 0, first = 1; id < PAT_COUNT; id++)
        if (s->only & (1u << id)) {
            size_t u = strlen(buf);
            snprintf(buf + u, len - u, "%s%s", first ? "" : ",", pat_name((enum pat_id)id));
            first = 0;
        }
    size_t u = strlen(buf);
    snprintf(buf + u, len - u, " sim_max_n=%llu", s->max_n);
    append_list(buf, len, "sim_wg", s->wg, s->wg_count);
    append_list(buf, len, "sim_smem", s->smem, s->smem_count);
}

void xs_cell_describe(const pat_params *p, char *buf, size_t len)
{
    unsigned fl = pat_flags(p->pattern);
    size_t u;
    snprintf(buf, len, "%s n=%llu wg=%d smem_per_wg=%u", pat_name(p->pattern), (unsigned long long)p->n, p->wg,
             p->smem_per_wg);
#define ADD(...) (u = strlen(buf), snprintf(buf + u, len - u, __VA_ARGS__))
    if (fl & PF_SELECTIVITY)
        ADD(" selectivity=%g", p->selectivity);
    if (fl & PF_BINS)
        ADD(" bins=%u", p->bins);
    if (fl & PF_HOT)
        ADD(" hot=%g", p->hot);
    if (fl & PF_ADDRESSES)
        ADD(" addresses=%u", p->addresses);
#undef ADD
}

/* ---- walking the table's cells -------------------------------------------------- */

typedef struct xs_walk {
    xs_plan *plan;
    size_t cursor, cap;                /* fill: the next recorded cell; collect: cells' room */
    exp_axis smem[PAT_COUNT];          /* each pattern's shared-memory axis, once */
    unsigned char smem_known[PAT_COUNT];
} xs_walk;

/* Whether the table's cell at p is the simulator's, and where the
 * simulator runs for it.  exp_build calls the GPU function only at the
 * lowest shared-memory value of a run that holds as many workgroups an SM
 * (the rest copy its time), so p starts such a run: the cell is in scope
 * when a listed value lies in the run, and the simulator runs at the lowest
 * listed one, whose cell is then exact. */
static int sim_point(xs_walk *w, const pat_params *p, pat_params *run)
{
    const xs_scope *s = &w->plan->scope;
    const cfg_config *gpu = &w->plan->gpu;
    if (p->n > s->max_n || !listed(s->wg, s->wg_count, p->wg))
        return 0;
    if (!w->smem_known[p->pattern]) {
        exp_axis axes[EXP_MAX_AXES];
        const exp_axis *ax = axis_of(gpu, p->pattern, EXP_AXIS_SMEM, axes);
        if (ax)
            w->smem[p->pattern] = *ax;
        else
            w->smem[p->pattern].count = 0;
        w->smem_known[p->pattern] = 1;
    }
    const exp_axis *ax = &w->smem[p->pattern];
    int i = 0;
    while (i < ax->count && ax->values[i] != p->smem_per_wg)
        i++;
    if (i == ax->count) { /* off the axis: no run to share, the point alone */
        *run = *p;
        return listed(s->smem, s->smem_count, p->smem_per_wg);
    }
    int occ = exp_wgs_per_sm(gpu, p);
    for (int j = i; j < ax->count; j++) {
        pat_params q = *p;
        q.smem_per_wg = (uint32_t)ax->values[j];
        if (j > i && exp_wgs_per_sm(gpu, &q) != occ)
            break;
        if (listed(s->smem, s->smem_count, ax->values[j])) {
            *run = q;
            return 1;
        }
    }
    return 0;
}

/* exp_build's GPU function for the plan: records the simulator's points;
 * the time is a placeholder (that table is thrown away). */
static int collect(void *ctx, const cfg_config *gpu, const pat_params *p, double *gpu_us, enum exp_source *src,
                   char err[CFG_ERR_MAX])
{
    xs_walk *w = ctx;
    xs_plan *pl = w->plan;
    pat_params q;
    (void)gpu;
    *gpu_us = 1;
    *src = EXP_SOURCE_MODEL;
    if (!sim_point(w, p, &q))
        return 0;
    if (pl->count == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 1024;
        xs_cell *c = realloc(pl->cells, cap * sizeof *c);
        if (!c) {
            snprintf(err, CFG_ERR_MAX, "out of memory for %zu simulator cells", cap);
            return -1;
        }
        pl->cells = c;
        w->cap = cap;
    }
    xs_cell *c = &pl->cells[pl->count++];
    memset(c, 0, sizeof *c);
    c->p = q;
    c->status = XS_PENDING;
    return 0;
}

static int same_point(const pat_params *a, const pat_params *b)
{
    return a->pattern == b->pattern && a->n == b->n && a->wg == b->wg && a->selectivity == b->selectivity &&
           a->bins == b->bins && a->hot == b->hot && a->addresses == b->addresses && a->smem_per_wg == b->smem_per_wg &&
           a->seed == b->seed;
}

/* exp_build's GPU function for the table: the recorded cells in order,
 * the model everywhere else and where the simulator ran out of events. */
static int fill(void *ctx, const cfg_config *gpu, const pat_params *p, double *gpu_us, enum exp_source *src,
                char err[CFG_ERR_MAX])
{
    xs_walk *w = ctx;
    const xs_plan *pl = w->plan;
    pat_params q;
    if (!sim_point(w, p, &q))
        return exp_model_gpu(NULL, gpu, p, gpu_us, src, err);
    if (w->cursor >= pl->count || !same_point(&pl->cells[w->cursor].p, &q)) {
        snprintf(err, CFG_ERR_MAX, "the simulator's cells do not follow the table's grid (cell %zu)", w->cursor);
        return -1;
    }
    const xs_cell *c = &pl->cells[w->cursor++];
    if (c->status == XS_SIM) {
        *gpu_us = c->gpu_us;
        *src = EXP_SOURCE_SIM;
        return 0;
    }
    if (c->status == XS_BUDGET)
        return exp_model_gpu(NULL, gpu, p, gpu_us, src, err);
    snprintf(err, CFG_ERR_MAX, "simulator cell %zu was not run", w->cursor - 1);
    return -1;
}

int xs_plan_build(const cfg_config *gpu, const cpu_config *cpu, const xs_scope *s, xs_plan *out,
                  char err[CFG_ERR_MAX])
{
    memset(out, 0, sizeof *out);
    out->gpu = *gpu;
    out->cpu = *cpu;
    out->scope = *s;
    xs_walk *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    w->plan = out;
    exp_options o = { s->only, collect, w, 0, 0 };
    exp_table *t;
    int rc = exp_build(gpu, cpu, &o, &t, err);
    free(w);
    if (rc) {
        xs_plan_free(out);
        return -1;
    }
    exp_free(t);
    return 0;
}

void xs_plan_free(xs_plan *p)
{
    free(p->cells);
    p->cells = NULL;
    p->count = 0;
}

int xs_table(const xs_plan *p, unsigned anchor, exp_table **out, char err[CFG_ERR_MAX])
{
    xs_walk *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(err, CFG_ERR_MAX, "out of memory");
        return -1;
    }
    w->plan = (xs_plan *)p; /* fill only reads it */
    exp_options o = { p->scope.only, fill, w, 0, anchor };
    int rc = exp_build(&p->gpu, &p->cpu, &o, out, err);
    if (!rc && w->cursor != p->count) {
        snprintf(err, CFG_ERR_MAX, "the table used %zu of %zu simulator cells", w->cursor, p->count);
        exp_free(*out);
        rc = -1;
    }
    free(w);
    return rc;
}

/* ---- running ---------------------------------------------------------------------- */

typedef struct xs_result {
    int rc, budget;
    double gpu_us, cpu_s;
    char err[CFG_ERR_MAX];
} xs_result;

typedef struct xs_jobs {
    xs_plan *p;
    size_t begin;
    int failed;
    char err[CFG_ERR_MAX];
} xs_jobs;

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void job_run(void *ctx, uint64_t pos, void *result)
{
    xs_jobs *j = ctx;
    xs_result *r = result;
    const xs_cell *c = &j->p->cells[j->begin + pos];
    if (c->status != XS_PENDING) { /* carried over (--reuse): its run's result and cost */
        memset(r, 0, sizeof *r);
        r->gpu_us = c->gpu_us;
        r->cpu_s = c->cpu_s;
        r->budget = c->status == XS_BUDGET;
        r->rc = r->budget;
        return;
    }
    atom_stats st;
    double t0 = cpu_now();
    r->rc = cli_sim_engine(&j->p->gpu, &j->p->cells[j->begin + pos].p, &st, r->err);
    r->cpu_s = cpu_now() - t0;
    if (!r->rc && !isfinite(st.time_us)) {
        r->rc = 1;
        snprintf(r->err, CFG_ERR_MAX, "the simulator's time is not finite");
    }
    r->gpu_us = r->rc ? 0 : st.time_us;
    /* The engine fails a run with 1 both when it runs out of events and
     * when its functional check fails; only the first is the model's to
     * fill, so the budget is told apart by the engine's message. */
    r->budget = r->rc == 1 && strstr(r->err, "event budget") != NULL;
}

static int job_done(void *ctx, uint64_t pos, void *result)
{
    xs_jobs *j = ctx;
    const xs_result *r = result;
    xs_cell *c = &j->p->cells[j->begin + pos];
    c->cpu_s = r->cpu_s;
    if (r->rc && !r->budget) {
        char d[512];
        xs_cell_describe(&c->p, d, sizeof d);
        snprintf(j->err, CFG_ERR_MAX, "%s: %s", d, r->err);
        j->failed = 1;
        return 1;
    }
    c->status = r->budget ? XS_BUDGET : XS_SIM;
    c->gpu_us = r->gpu_us;
    return 0;
}

static void job_describe(void *ctx, uint64_t pos, char *buf, size_t len)
{
    xs_jobs *j = ctx;
    xs_cell_describe(&j->p->cells[j->begin + pos].p, buf, len);
}

int xs_run(xs_plan *p, size_t begin, size_t end, int jobs, int progress, char err[CFG_ERR_MAX])
{
    xs_jobs j = { p, begin, 0, "" };
    pool_ops ops = { sizeof(xs_result), job_run, job_done, job_describe, "export", "simulator cells" };
    if (pool_run(&ops, &j, end - begin, jobs, progress)) {
        err[0] = 0; /* the pool said why on stderr */
        return 1;
    }
    if (j.failed) {
        snprintf(err, CFG_ERR_MAX, "%s", j.err);
        return 1;
    }
    return 0;
}
