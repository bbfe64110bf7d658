/* cpb_run.c - the plan mode of cpb_run.h:
 *   cpubench --plan FILE [--workers W] [--reps R] [--warmup W2]
 *            [--smem-max B] [--batch-mib M] [--dry-run]
 * Rows are flushed a batch at a time, so a run cut short keeps the batches
 * it finished. */
#include "cpb_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../model/params_csv.h"
#include "cpb_host.h"
#include "cpb_job.h"
#include "cpb_kernels.h"
#include "cpb_plan.h"
#include "cpb_pool.h"
#include "cpb_ref.h"
#include "cpb_simd.h"

#define DEFAULT_REPS 9
#define DEFAULT_WARMUP 2
/* What vkbench reports as max_compute_shared_memory_bytes on the H100 and
 * the H200 (validate/data), so "--smem-per-wg max" rows join theirs. */
#define DEFAULT_SMEM_MAX 49152
/* Configurations timed together (interleaved) at most: their buffers, all
 * open at once, within --batch-mib (default 1 GiB); 64 bounds how long a
 * row waits for its batch. */
#define DEFAULT_BATCH_MIB 1024
#define BATCH_MAX 64

/* The columns after the pattern and the parameters' (which come from the
 * contract's table: params_header). */
static const char header_tail[] = "reps,time_us_median,time_us_min,time_us_max,check";

typedef struct opts {
    const char *plan;
    int workers, reps, warmup, dry_run;
    uint32_t smem_max;
    size_t batch_bytes, batch_max;
} opts;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One option's count, range-checked; 0 or -1 having said why. */
static int count_opt(const char *flag, const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (cpb_parse_uint(v, out) || *out < lo || *out > hi) {
        fprintf(stderr, "cpubench: %s: '%s' is not an integer in [%llu, %llu] (see --help)\n", flag, v,
                (unsigned long long)lo, (unsigned long long)hi);
        return -1;
    }
    return 0;
}

static int parse(int argc, char **argv, opts *o)
{
    o->workers = cpb_online_cpus();
    if (o->workers > CPB_MAX_WORKERS)
        o->workers = CPB_MAX_WORKERS;
    o->reps = DEFAULT_REPS;
    o->warmup = DEFAULT_WARMUP;
    o->smem_max = DEFAULT_SMEM_MAX;
    o->batch_bytes = (size_t)DEFAULT_BATCH_MIB << 20;
    o->batch_max = BATCH_MAX;
    for (int i = 1; i < argc; i++) {
        char name[32];
        const char *a = argv[i], *eq = strchr(a, '='), *v;
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        uint64_t x;
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), a);
        if (!strcmp(name, "--dry-run") && !eq) {
            o->dry_run = 1;
            continue;
        }
        if (strcmp(name, "--plan") && strcmp(name, "--workers") && strcmp(name, "--reps") &&
            strcmp(name, "--warmup") && strcmp(name, "--smem-max") && strcmp(name, "--batch-mib")) {
            fprintf(stderr, "cpubench: unknown option '%s' in plan mode (see --help)\n", a);
            return -1;
        }
        if (eq)
            v = eq + 1;
        else if (i + 1 < argc)
            v = argv[++i];
        else {
            fprintf(stderr, "cpubench: %s needs a value (see --help)\n", name);
            return -1;
        }
        if (!strcmp(name, "--plan")) {
            if (!*v) {
                fprintf(stderr, "cpubench: --plan needs a file (see --help)\n");
                return -1;
            }
            o->plan = v;
        } else if (!strcmp(name, "--workers")) {
            if (count_opt(name, v, 1, CPB_MAX_WORKERS, &x))
                return -1;
            o->workers = (int)x;
        } else if (!strcmp(name, "--reps")) {
            if (count_opt(name, v, 1, 1000, &x))
                return -1;
            o->reps = (int)x;
        } else if (!strcmp(name, "--warmup")) {
            if (count_opt(name, v, 0, 100, &x))
                return -1;
            o->warmup = (int)x;
        } else if (!strcmp(name, "--batch-mib")) {
            if (count_opt(name, v, 0, 1048576, &x))
                return -1;
            o->batch_bytes = (size_t)x << 20;
        } else {
            if (count_opt(name, v, 0, 1048576, &x))
                return -1;
            o->smem_max = (uint32_t)x;
        }
    }
    return 0;
}

/* "pattern,n,wg,...,smem_per_wg,TAIL": the parameters' columns are the
 * contract's table's (model/params_csv.h), as vkbench's and atomsim's. */
static void params_header(const char *tail)
{
    char params[256];
    pat_csv_header(PAT_CSV_TABLE, params, sizeof params);
    printf("pattern,%s,%s\n", params, tail);
}

static void print_config(const cpb_cfg *c)
{
    pat_params p;
    cpb_cfg_params(c, &p);
    printf("%s,", pat_name(c->pattern));
    pat_csv_write(stdout, PAT_CSV_TABLE, &p, 6); /* doubles as %g */
}

static void provenance(const opts *o, cpb_pool *pool)
{
    char model[256], date[64], boot[64];
    cpb_cpu_model(model, sizeof model);
    cpb_boot_id(boot, sizeof boot);
    cpb_date(date, sizeof date);
    printf("# cpu_model: %s\n", model);
    printf("# boot_id: %s\n", boot);
    printf("# online_cpus: %d\n", cpb_online_cpus());
    printf("# workers: %d\n", o->workers);
    printf("# simd: %s\n", cpb_simd_level());
    printf("# pool: %d workers%s; idle workers spin %d us, then sleep\n", o->workers,
           cpb_pool_pinned(pool) ? ", each pinned to a CPU of its own" : ", not pinned (more than the CPUs)",
           cpb_pool_spin_us(pool));
    printf("# timing: wall clock (CLOCK_MONOTONIC) of one task on a persistent pool of %d workers, from handing it "
           "to the pool until every worker and the merge are done: zeroing private state, the scan, the barrier and "
           "the merge or concatenation; buffers allocated and first touched by their workers beforehand, untimed; "
           "configurations timed in batches of up to %zu whose buffers fit %zu MiB together: every one's warm-ups, "
           "then rounds, each timing one repetition of every configuration right after one untimed run of it "
           "(a batch of one: the repetitions back to back); idle workers spin %d us before they sleep, so they "
           "are awake; the last repetition's result checked against a serial reference\n",
           o->workers, o->batch_max, o->batch_bytes >> 20, cpb_pool_spin_us(pool));
    printf("# cpu_tier: private state per worker, no atomics; counts and sums added by the caller; compaction "
           "regions concatenated in parallel; private bins (8 or 4 copies used in turn while they fit in 16 KiB) merged in parallel; no hot test without a hot fraction; "
           "bitmask words built whole by their owner; wg and smem_per_wg are echoed, the CPU ignores them\n");
    printf("# smem_per_wg_max: %u (what --smem-per-wg max stands for)\n", o->smem_max);
    printf("# date: %s\n", date);
    printf("# harness: cpubench\n");
    printf("# harness_commit: %s\n", cpb_commit());
    params_header(header_tail);
    fflush(stdout);
}

/* One configuration of a batch: its job and its timed repetitions. */
typedef struct slot {
    const cpb_cfg *c;
    size_t k; /* in the plan */
    cpb_job j;
    double *t;
    int open;
} slot;

/* Checks one configuration's last result and writes its row; 0, or 1 on a
 * failed check or no memory. */
static int finish_one(const opts *o, slot *s, size_t total, size_t k0, size_t k1, double batch_s)
{
    char desc[256], why[256];
    const cpb_cfg *c = s->c;
    cpb_cfg_describe(c, desc, sizeof desc);
    if (!s->open) {
        fprintf(stderr, "cpubench: %s:%d: %s: out of memory, no row\n", o->plan, c->line, desc);
        return 1;
    }
    int bad = cpb_ref_check(&s->j, why, sizeof why);
    qsort(s->t, (size_t)c->reps, sizeof *s->t, cmp_double);
    print_config(c);
    if (bad)
        printf(",%d,,,,FAIL\n", c->reps);
    else
        printf(",%d,%.3f,%.3f,%.3f,ok\n", c->reps, s->t[c->reps / 2], s->t[0], s->t[c->reps - 1]);
    fflush(stdout);
    if (bad)
        fprintf(stderr, "cpubench: %s:%d: FAIL %s: %s\n", o->plan, c->line, desc, why);
    else
        fprintf(stderr, "cpubench: [%zu/%zu] %s: %.3f us (rows %zu-%zu timed together, %.2f s)\n", s->k + 1,
                total, desc, s->t[c->reps / 2], k0 + 1, k1, batch_s);
    return bad ? 1 : 0;
}

/* Times the configurations [k0, k1) of the plan together and writes their
 * rows in plan order.  Repetitions are interleaved: round r times every
 * configuration's r-th repetition, each right after one untimed run of the
 * same configuration (so its state is as warm as back to back).  A spell
 * of host noise then lands on one repetition of many rows, where the
 * median drops it, instead of on every repetition of one row. */
static int run_batch(const opts *o, cpb_pool *pool, const cpb_cfg_list *list, size_t k0, size_t k1, slot *b)
{
    size_t m = k1 - k0;
    int status = 0, rounds = 0;
    double start = cpb_now_us();
    for (size_t i = 0; i < m; i++) {
        slot *s = &b[i];
        memset(s, 0, sizeof *s);
        s->c = &list->v[k0 + i];
        s->k = k0 + i;
        s->t = malloc((size_t)s->c->reps * sizeof *s->t);
        if (s->t && !cpb_job_open(&s->j, s->c, pool, o->workers))
            s->open = 1;
        else
            cpb_job_close(&s->j);
        if (s->c->reps > rounds)
            rounds = s->c->reps;
    }
    for (size_t i = 0; i < m; i++)
        for (int r = 0; b[i].open && r < b[i].c->warmup; r++)
            cpb_job_run(&b[i].j, pool);
    for (int r = 0; r < rounds; r++)
        for (size_t i = 0; i < m; i++) {
            slot *s = &b[i];
            if (!s->open || r >= s->c->reps)
                continue;
            if (m > 1)
                cpb_job_run(&s->j, pool);
            double t0 = cpb_now_us();
            cpb_job_run(&s->j, pool);
            s->t[r] = cpb_now_us() - t0;
        }
    double batch_s = (cpb_now_us() - start) / 1e6;
    for (size_t i = 0; i < m; i++) {
        status |= finish_one(o, &b[i], list->len, k0, k1, batch_s);
        cpb_job_close(&b[i].j);
        free(b[i].t);
    }
    return status;
}

/* Cuts the plan into batches of consecutive configurations whose buffers
 * fit o->batch_bytes together (a larger one runs alone) and runs each. */
static int run_plan(const opts *o, cpb_pool *pool, const cpb_cfg_list *list)
{
    int status = 0;
    slot *b = malloc((list->len ? list->len : 1) * sizeof *b);
    if (!b) {
        fprintf(stderr, "cpubench: out of memory for %zu configurations\n", list->len);
        return 1;
    }
    for (size_t k0 = 0; k0 < list->len;) {
        size_t k1 = k0, bytes = 0;
        while (k1 < list->len && (k1 == k0 || (k1 - k0 < o->batch_max &&
                                               bytes + cpb_job_bytes(&list->v[k1], o->workers) <= o->batch_bytes)))
            bytes += cpb_job_bytes(&list->v[k1++], o->workers);
        status |= run_batch(o, pool, list, k0, k1, b);
        k0 = k1;
    }
    free(b);
    return status;
}

int cpb_run_main(int argc, char **argv)
{
    opts o = { 0 };
    cpb_cfg_list list = { 0 };
    char err[CPB_ERRLEN];
    cpb_pool *pool = NULL;
    int status = 0;
    if (parse(argc, argv, &o))
        return 2;
    if (!o.plan) {
        fprintf(stderr, "cpubench: no --plan given (see --help)\n");
        return 2;
    }
    if (cpb_plan_read(o.plan, o.reps, o.warmup, o.smem_max, &list, err)) {
        fprintf(stderr, "cpubench: %s\n", err);
        cpb_cfg_list_free(&list);
        return 2;
    }
    if (o.dry_run) {
        params_header("reps,warmup");
        for (size_t k = 0; k < list.len; k++) {
            print_config(&list.v[k]);
            printf(",%d,%d\n", list.v[k].reps, list.v[k].warmup);
        }
        cpb_cfg_list_free(&list);
        return 0;
    }
    if (cpb_pool_open(o.workers, &pool)) {
        fprintf(stderr, "cpubench: cannot start %d worker threads\n", o.workers);
        cpb_cfg_list_free(&list);
        return 1;
    }
    provenance(&o, pool);
    status = run_plan(&o, pool, &list);
    cpb_pool_close(pool);
    cpb_cfg_list_free(&list);
    return status;
}
