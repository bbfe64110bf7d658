/* cpb_costs.c - cpubench's cost mode: measures the CPU tier's cost
 * constants with the worker pool and writes them as a CSV of raw timings
 * and as a CPU-tier config (configs/cpu-*.ini) that model/cpu_config.c
 * reads.
 *
 *   build/cpubench [--workers W] [--n N] [--reps R] [--csv FILE] [--ini FILE]
 *                  [--name NAME] [--quick]
 *
 * Every timing is R repetitions after one warm-up, with all W workers
 * running, so memory contention between them is in it.  The CSV keeps the
 * median, minimum and maximum; the config takes the median, the statistic
 * the plan mode and a routing truth set report, so the tier predicts what
 * they measure (the minimum made it 5-15% too fast on the GPU host).  The tasks are the
 * plan mode's loops (cpb_kernels.h), so the constants describe the code
 * that cpubench --plan times; pool_dispatch is the pool's back-to-back
 * hand-over, pool_dispatch_cold (CSV only) the wake-up after a pause. */
#define _GNU_SOURCE
#include "cpb_costs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../model/cpu_copies.h"
#include "cpb_host.h"
#include "cpb_kernels.h"
#include "cpb_plan.h"
#include "../../util/lines.h"
#include "../../util/num.h"
#include "cpb_pool.h"
#include "cpb_simd.h"

#define MAX_LOG2_BINS 22
/* distinct-lines' counters in the lines row: one private copy, in L1 */
#define CPB_LINES_P 4096
_Static_assert(CPB_LINES_P > 1024 && CPB_LINES_P <= (1 << MAX_LOG2_BINS) && !(CPB_LINES_P & (CPB_LINES_P - 1)),
               "the lines row wants one private copy (cpu_hist_copies) and a zero row at the same P");

typedef struct timing {
    double median_us, min_us, max_us;
} timing;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static timing measure(cpb_pool *pool, cpb_task_fn fn, cpb_kjob *job, int reps, int cold)
{
    double t[1024];
    if (reps > 1024)
        reps = 1024;
    cpb_pool_run(pool, fn, job); /* warm-up: page faults, caches, clocks */
    for (int r = 0; r < reps; r++) {
        if (cold)
            cpb_pool_settle(pool);
        double t0 = cpb_now_us();
        cpb_pool_run(pool, fn, job);
        t[r] = cpb_now_us() - t0;
    }
    qsort(t, (size_t)reps, sizeof t[0], cmp_double);
    /* to the nanosecond the CSV keeps, so that --from-csv derives the
     * same config from the CSV as this run does */
    timing m = { round(t[reps / 2] * 1e3) / 1e3, round(t[0] * 1e3) / 1e3, round(t[reps - 1] * 1e3) / 1e3 };
    return m;
}

static FILE *csv;

static void row(const char *what, int workers, uint64_t n, uint32_t bins, double s, int reps, timing t, double ns)
{
    fprintf(csv, "%s,%d,%llu,%u,%g,%d,%.3f,%.3f,%.3f,%.4f\n", what, workers, (unsigned long long)n, bins, s, reps,
            t.median_us, t.min_us, t.max_us, ns);
    fflush(csv);
}

static double cache_bytes(int name, double fallback)
{
    long v = sysconf(name);
    return v > 0 ? (double)v : fallback;
}

static double median_of(double *v, int n)
{
    qsort(v, (size_t)n, sizeof v[0], cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The selectivity at which store's skip branch over `lanes` keys goes
 * either way half the time: 1 - (1 - S)^lanes = 1/2. */
static double skip_selectivity(int lanes)
{
    return 1 - pow(0.5, 1.0 / lanes);
}

/* One mispredicted skip, in ns a worker: the time store spends beyond its
 * S = 0 run, per element, times the keys a branch covers, over the share
 * of branches a predictor of the majority outcome misses (findings 34:
 * the hump follows min(p, 1 - p)). */
static double skip_cost(double extra_us, double s, int lanes, double per_elem)
{
    double p = 1 - pow(1 - s, lanes), miss = p < 1 - p ? p : 1 - p;
    double v = extra_us * per_elem * lanes / (miss > 0 ? miss : 1);
    return v > 0 ? v : 0;
}

/* Reads back the CSV this program writes: the figures the config is
 * derived from, from each row's median repetition. */
static int read_results(const char *path, int *workers, uint64_t *n, double *pool_us, double *key_ns, double *reduce_ns,
                        double *bitmask_ns, double *compact_ns, double *copy_gbps, double *zero_big, double *merge_big, double *update,
                        double *skip_ns, int *lanes, double *lines_ns)
{
    double store0 = NAN, store_skip = NAN, skip_s = 0, lines = NAN;
    int lines_e = 0;
    double hist[MAX_LOG2_BINS + 1], zero[MAX_LOG2_BINS + 1], concat = 0;
    int have = 0, got;
    char err[512];
    lin_reader in;
    /* bounded and strict: /dev/zero or a directory is refused, and a row
     * that is not ten well-formed fields is an error naming its line, not
     * skipped (a row skipped silently changed the config derived) */
    if (lin_open_as(&in, path, "CSV", LIN_MAX_LINE, err, sizeof err)) {
        fprintf(stderr, "cpubench: %s\n", err);
        return -1;
    }
    for (int e = 0; e <= MAX_LOG2_BINS; e++)
        hist[e] = zero[e] = NAN;
    while ((got = lin_next(&in, err, sizeof err)) > 0) {
        char *line = in.line, *fld[11];
        int nf = 0;
        if (!line[0] || line[0] == '#' || !strncmp(line, "measure,", 8))
            continue;
        for (char *p = line; nf < 11; nf++) {
            fld[nf] = p;
            p = strchr(p, ',');
            if (!p) {
                nf++;
                break;
            }
            *p++ = 0;
        }
        /* measure,workers,n,bins,selectivity,reps,median,min,max,ns_per_element_worker */
        static const double lo[] = { 0, 1, 0, 0, 0, 1, 0, 0, 0, -HUGE_VAL };
        static const double hi[] = { 0, 4096, 1099511627776.0, 1073741824.0, 1, 1e9, HUGE_VAL, HUGE_VAL, HUGE_VAL, HUGE_VAL };
        double v[10];
        int bad = nf != 10 || !fld[0][0] || strlen(fld[0]) > 31;
        for (int i = 1; !bad && i < 10; i++)
            bad = num_parse_range(fld[i], lo[i], hi[i], i <= 3 || i == 5 ? NUM_INTEGER : 0, &v[i]) != 0;
        if (bad) {
            snprintf(err, sizeof err, "%s:%lu: not a row of cpubench's CSV (measure and nine numbers in range)", path,
                     in.lineno);
            got = -1;
            break;
        }
        const char *what = fld[0];
        int w = (int)v[1];
        unsigned long long nn = (unsigned long long)v[2];
        unsigned bins = (unsigned)v[3];
        double s = v[4], med = v[6]; /* the config uses the median (see the top) */
        int e = bins ? __builtin_ctz(bins) : 0;
        *workers = w;
        if (!strcmp(what, "pool_dispatch"))
            *pool_us = med, have |= 1;
        else if (!strcmp(what, "count"))
            *n = nn, *key_ns = med, have |= 2;
        else if (!strcmp(what, "compact"))
            *compact_ns = med, have |= 4;
        else if (!strcmp(what, "reduce"))
            *reduce_ns = med;
        else if (!strcmp(what, "bitmask"))
            *bitmask_ns = med;
        else if (!strcmp(what, "concat"))
            concat = med;
        else if (!strcmp(what, "hist") && e <= MAX_LOG2_BINS)
            hist[e] = med;
        else if (!strcmp(what, "zero") && e <= MAX_LOG2_BINS)
            zero[e] = med;
        else if (!strcmp(what, "merge"))
            *merge_big = med;
        else if (!strcmp(what, "store_s0"))
            store0 = med;
        else if (!strcmp(what, "store_skip"))
            store_skip = med, skip_s = s, *lanes = (int)bins;
        else if (!strcmp(what, "lines") && bins && !(bins & (bins - 1)) && e <= MAX_LOG2_BINS &&
                 cpu_hist_copies(bins, 4) == 1)
            lines = med, lines_e = e;
    }
    lin_close(&in);
    if (got < 0) {
        fprintf(stderr, "cpubench: %s\n", err);
        return -1;
    }
    if (have != 7) {
        fprintf(stderr, "cpubench: %s lacks the pool, count or compact rows\n", path);
        return -1;
    }
    double per_elem = 1000.0 * *workers / (double)*n;
    /* at least nothing: on a busy host a tiny run's pool can time above it */
    *key_ns = fmax((*key_ns - *pool_us) * per_elem, 0);
    *compact_ns = (*compact_ns - *pool_us) * per_elem;
    /* a CSV from before reduce was timed: 0 in the config, key_ns in the tier */
    *reduce_ns = *reduce_ns > 0 ? (*reduce_ns - *pool_us) * per_elem : 0;
    /* and before bitmask was: 0, key_ns in the tier */
    *bitmask_ns = *bitmask_ns > 0 ? fmax((*bitmask_ns - *pool_us) * per_elem, 0) : 0;
    *copy_gbps = 4.0 * (double)*n / (fmax(concat - *pool_us, 0.01) * 1e3);
    for (int e = 0; e <= MAX_LOG2_BINS; e++)
        update[e] = (hist[e] - zero[e]) * per_elem - *key_ns;
    /* a CSV from before the store rows: 0, no skip-branch term in the tier */
    *skip_ns = isnan(store0) || isnan(store_skip) ? 0 : skip_cost(store_skip - store0, skip_s, *lanes, per_elem);
    /* and before the lines row: -1, no key written, so the tier keeps a
     * hashed update's price (a 0 would read as a measurement) */
    *lines_ns = isnan(lines) || isnan(zero[lines_e]) ? -1 : fmax((lines - zero[lines_e]) * per_elem, 0);
    *zero_big = (zero[MAX_LOG2_BINS] - *pool_us) * 1000.0 / (1u << MAX_LOG2_BINS);
    *merge_big = (*merge_big - *pool_us) * 1000.0 / (1u << MAX_LOG2_BINS);
    return 0;
}

/* A strict count (cpb_parse_uint) for an option, or -1. */
static long long count_arg(const char *flag, const char *v, unsigned long long lo, unsigned long long hi)
{
    uint64_t x;
    if (cpb_parse_uint(v, &x) || x < lo || x > hi) {
        fprintf(stderr, "cpubench: %s: '%s' is not an integer in [%llu, %llu]\n", flag, v, lo, hi);
        return -1;
    }
    return (long long)x;
}

static int bytes_arg(const char *flag, const char *v, double *out)
{
    double d;
    if (num_parse_double(v, &d) || d <= 0) {
        fprintf(stderr, "cpubench: %s: '%s' is not a positive number of bytes\n", flag, v);
        return -1;
    }
    *out = d;
    return 0;
}

int cpb_costs_main(int argc, char **argv)
{
    int workers = cpb_online_cpus() < CPB_MAX_WORKERS ? cpb_online_cpus() : CPB_MAX_WORKERS, reps = 7, quick = 0;
    uint64_t n = 1ull << 23;
    const char *csv_path = NULL, *ini_path = NULL, *name = "cpu", *from_csv = NULL, *model_text = NULL;
    double l1_opt = 0, l2_opt = 0, llc_opt = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long x = 0;
        if (!strcmp(a, "--quick"))
            quick = 1;
        else if (v && !strcmp(a, "--workers")) {
            if ((x = count_arg(a, argv[++i], 1, CPB_MAX_WORKERS)) < 0)
                return 2;
            workers = (int)x;
        } else if (v && !strcmp(a, "--n")) {
            if ((x = count_arg(a, argv[++i], 1, 1ull << 31)) < 0)
                return 2;
            n = (uint64_t)x;
        } else if (v && !strcmp(a, "--reps")) {
            if ((x = count_arg(a, argv[++i], 1, 1000)) < 0)
                return 2;
            reps = (int)x;
        } else if (v && !strcmp(a, "--csv"))
            csv_path = argv[++i];
        else if (v && !strcmp(a, "--ini"))
            ini_path = argv[++i];
        else if (v && !strcmp(a, "--name"))
            name = argv[++i];
        else if (v && !strcmp(a, "--from-csv"))
            from_csv = argv[++i];
        else if (v && !strcmp(a, "--cpu-model"))
            model_text = argv[++i];
        else if (v && !strcmp(a, "--l1")) {
            if (bytes_arg(a, argv[++i], &l1_opt))
                return 2;
        } else if (v && !strcmp(a, "--l2")) {
            if (bytes_arg(a, argv[++i], &l2_opt))
                return 2;
        } else if (v && !strcmp(a, "--llc")) {
            if (bytes_arg(a, argv[++i], &llc_opt))
                return 2;
        } else {
            fprintf(stderr, "cpubench: bad argument '%s' (see --help)\n", a);
            return 2;
        }
    }
    if (workers > CPB_MAX_WORKERS || n < (uint64_t)workers) {
        fprintf(stderr, "cpubench: --workers in [1, %d] and --n in [workers, 2^31]\n", CPB_MAX_WORKERS);
        return 2;
    }
    if (quick) {
        n = n > (1u << 20) ? 1u << 20 : n;
        reps = reps > 3 ? 3 : reps;
    }
    double pool_us = 0, key_ns = 0, reduce_ns = 0, bitmask_ns = 0, compact_ns = 0, copy_gbps = 0, zero_big = 0,
           merge_big = 0;
    double update[MAX_LOG2_BINS + 1], zero_us[MAX_LOG2_BINS + 1], skip_ns = 0, lines_ns = 0;
    int lanes = cpb_store_lanes();
    cpb_pool *pool = NULL;
    if (from_csv) {
        if (read_results(from_csv, &workers, &n, &pool_us, &key_ns, &reduce_ns, &bitmask_ns, &compact_ns, &copy_gbps,
                         &zero_big, &merge_big, update, &skip_ns, &lanes, &lines_ns))
            return 2;
    } else {
        csv = csv_path ? fopen(csv_path, "w") : stdout;
        if (!csv) {
            fprintf(stderr, "cpubench: cannot write %s\n", csv_path);
            return 1;
        }
        static cpb_kjob job;
        if (cpb_pool_open(workers, &pool)) {
            fprintf(stderr, "cpubench: cannot start %d worker threads\n", workers);
            return 1;
        }
        uint64_t region = n / (uint64_t)workers + 32, max_bins = 1ull << MAX_LOG2_BINS;
        uint64_t per = region > max_bins ? region : max_bins;
        if (per < cpb_kjob_bins_words(1024))
            per = cpb_kjob_bins_words(1024);
        /* each worker's private memory on cache lines of its own */
        for (int w = 0; w < workers; w++)
            if (!(job.priv[w] = aligned_alloc(64, (per * sizeof(uint32_t) + 63) / 64 * 64))) {
                fprintf(stderr, "cpubench: out of memory\n");
                return 1;
            }
        job.out = malloc((n > max_bins ? n : max_bins) * sizeof(uint32_t));
        if (!job.out) {
            fprintf(stderr, "cpubench: out of memory\n");
            return 1;
        }
        job.n = n;
        char boot[64];
        cpb_boot_id(boot, sizeof boot);
        fprintf(csv, "# boot_id: %s\n", boot);
        fprintf(csv, "measure,workers,n,bins,selectivity,reps,time_us_median,time_us_min,time_us_max,ns_per_element_worker\n");

        timing t = measure(pool, cpb_task_empty, &job, 200, 0);
        pool_us = t.median_us;
        row("pool_dispatch", workers, 0, 0, 0, 200, t, 0);
        /* the same after the workers went to sleep: what a dispatcher
         * pays for an operation that arrives after a pause */
        row("pool_dispatch_cold", workers, 0, 0, 0, 50, measure(pool, cpb_task_empty, &job, 50, 1), 0);

        double per_elem = 1000.0 * workers / (double)n;
        job.threshold = 500000;
        t = measure(pool, cpb_task_count, &job, reps, 0);
        key_ns = fmax((t.median_us - pool_us) * per_elem, 0); /* as read_results does */
        row("count", workers, n, 0, 0.5, reps, t, key_ns);

        t = measure(pool, cpb_task_reduce, &job, reps, 0);
        reduce_ns = (t.median_us - pool_us) * per_elem;
        row("reduce", workers, n, 0, 1, reps, t, reduce_ns);

        /* bitmask selects as count does, but folds each word's 32 flags
         * into one word (a horizontal OR a word), which counting's sum
         * does not pay: on the hosts of truth sets 1-11 its rows at
         * n >= 2^20 took a median 1.20x a count's (docs/findings.md 45) */
        job.threshold = 500000;
        t = measure(pool, cpb_task_bitmask, &job, reps, 0);
        bitmask_ns = fmax((t.median_us - pool_us) * per_elem, 0);
        row("bitmask", workers, n, 0, 0.5, reps, t, bitmask_ns);

        /* store's skip branch: at S = 0 it always skips; at the S where a
         * vector of `lanes` keys holds a selected one half the time it
         * goes either way (the bins column carries the lanes) */
        job.threshold = 0;
        timing s0 = measure(pool, cpb_task_store, &job, reps, 0);
        row("store_s0", workers, n, (uint32_t)lanes, 0, reps, s0, (s0.median_us - pool_us) * per_elem);
        double s_half = skip_selectivity(lanes);
        job.threshold = (uint32_t)lround(s_half * 1e6);
        s_half = job.threshold / 1e6;
        t = measure(pool, cpb_task_store, &job, reps, 0);
        row("store_skip", workers, n, (uint32_t)lanes, s_half, reps, t, (t.median_us - pool_us) * per_elem);
        skip_ns = skip_cost(t.median_us - s0.median_us, s_half, lanes, per_elem);

        job.threshold = 1000000;
        t = measure(pool, cpb_task_compact, &job, reps, 0);
        compact_ns = (t.median_us - pool_us) * per_elem;
        row("compact", workers, n, 0, 1, reps, t, compact_ns);
        job.offset[0] = 0;
        for (int w = 0; w < workers; w++)
            job.offset[w + 1] = job.offset[w] + job.count[w * 8];
        t = measure(pool, cpb_task_concat, &job, reps, 0);
        copy_gbps = 4.0 * (double)job.offset[workers] / ((t.median_us - pool_us > 0.01 ? t.median_us - pool_us : 0.01) * 1e3);
        row("concat", workers, n, 0, 1, reps, t, (t.median_us - pool_us) * per_elem);

        for (int e = 0; e <= MAX_LOG2_BINS; e++) {
            job.bins = 1u << e;
            timing z = measure(pool, cpb_task_zero, &job, reps, 0);
            zero_us[e] = z.median_us;
            t = measure(pool, cpb_task_hist, &job, reps, 0);
            update[e] = (t.median_us - z.median_us) * per_elem - key_ns;
            row("hist", workers, n, job.bins, 1, reps, t, (t.median_us - pool_us) * per_elem);
            row("zero", workers, 0, job.bins, 0, reps, z, 0);
            if (e == MAX_LOG2_BINS)
                zero_big = (z.median_us - pool_us) * 1000.0 / job.bins;
        }
        job.bins = 1u << MAX_LOG2_BINS;
        t = measure(pool, cpb_task_merge, &job, reps, 0);
        merge_big = (t.median_us - pool_us) * 1000.0 / job.bins;
        row("merge", workers, 0, job.bins, 0, reps, t, 0);

        /* distinct-lines steps through its counters: at P = 4,096 (one
         * private copy, 16 KiB) an element costs neither a hash nor a
         * hashed update (docs/findings.md 51); less the zeroing row at
         * the same P, as read_results derives it */
        job.bins = CPB_LINES_P;
        t = measure(pool, cpb_task_lines, &job, reps, 0);
        lines_ns = fmax((t.median_us - zero_us[__builtin_ctz(CPB_LINES_P)]) * per_elem, 0);
        row("lines", workers, n, job.bins, 1, reps, t, lines_ns);
    }
    /* cache levels: a worker's private bins (4 bytes each) at each size */
    double l1 = l1_opt > 0 ? l1_opt : cache_bytes(_SC_LEVEL1_DCACHE_SIZE, 32768);
    double l2 = l2_opt > 0 ? l2_opt : cache_bytes(_SC_LEVEL2_CACHE_SIZE, 1 << 20);
    double llc = llc_opt > 0 ? llc_opt : cache_bytes(_SC_LEVEL3_CACHE_SIZE, 32 << 20), llc_share = llc / workers;
    double lv[4][MAX_LOG2_BINS + 1];
    int cnt[4] = { 0, 0, 0, 0 };
    for (int e = 3; e <= MAX_LOG2_BINS; e++) { /* K < 8 is the same-bin chain, fitted below */
        double fp = 4.0 * (1u << e);
        /* the LLC is shared: every worker's bins fill it together, and half
         * of a worker's share is where they start to spill (cpu_tier.c) */
        int level = fp <= l1 / 2 ? 0 : fp >= l1 && fp <= l2 / 2 ? 1 : fp >= l2 && fp <= llc_share / 4 ? 2 : fp >= llc_share / 2 ? 3 : -1;
        if (level >= 0)
            lv[level][cnt[level]++] = update[e];
    }
    double ns[4];
    const char *src[4];
    static const char *const names[4] = { "l1", "l2", "llc", "dram" };
    for (int k = 0; k < 4; k++) {
        ns[k] = cnt[k] ? fmax(0, median_of(lv[k], cnt[k])) : NAN;
        src[k] = cnt[k] ? "measured" : NULL;
    }
    for (int k = 1; k < 4; k++) /* a level the sizes never reached takes the one below */
        if (!cnt[k]) {
            ns[k] = ns[k - 1];
            src[k] = "not reached by 2^22 bins: copied from the level below";
        }
    double same_bin_ns = update[0] - ns[0];
    if (same_bin_ns < 0)
        same_bin_ns = 0;

    char model[256], host[256], date[64];
    time_t now = time(NULL);
    if (model_text)
        snprintf(model, sizeof model, "%s", model_text);
    else
        cpb_cpu_model(model, sizeof model);
    if (gethostname(host, sizeof host))
        snprintf(host, sizeof host, "unknown");
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    if (ini_path) {
        FILE *f = fopen(ini_path, "w");
        if (!f) {
            fprintf(stderr, "cpubench: cannot write %s\n", ini_path);
            return 1;
        }
        fprintf(f, "; %s - CPU tier measured by build/cpubench (validate/cpubench/), %d workers,\n", name, workers);
        if (from_csv)
            fprintf(f, "; n = %llu elements; derived with cpubench --from-csv %s (the raw timings).\n",
                    (unsigned long long)n, from_csv);
        else {
            char boot[64];
            cpb_boot_id(boot, sizeof boot);
            fprintf(f, "; n = %llu elements, median of %d repetitions after a warm-up, all workers running.\n",
                    (unsigned long long)n, reps);
            fprintf(f, "; boot_id %s (one machine between two reboots: runs with one id ran on one host)\n", boot);
        }
        fprintf(f, "; Every value below is a measurement (or says where it came from instead).\n\n");
        fprintf(f, "[source]\nname = %s\ncpu_model = %.60s\ndate = %s\ntool = cpubench\n\n", name, model, date);
        fprintf(f, "[cpu]\nworkers = %d\n\n", workers);
        fprintf(f, "[cost]\npool_dispatch_us = %.3f ; wake every worker and wait for all (empty task)\n", pool_us);
        fprintf(f, "key_ns = %.4f ; per element per worker: lowbias32, select, private count\n", key_ns);
        fprintf(f, "reduce_ns = %.4f ; per element per worker: lowbias32, sum of key & 255 (no selection)\n",
                reduce_ns > 0 ? reduce_ns : 0);
        fprintf(f, "bitmask_ns = %.4f ; per element per worker: lowbias32, select, its bit folded into a word built whole\n",
                bitmask_ns);
        if (lines_ns >= 0)
            fprintf(f, "lines_ns = %.4f ; per element per worker: distinct-lines' increment of the next counter, one copy (P = %d)\n",
                    lines_ns, CPB_LINES_P);
        fprintf(f, "store_ns = %.4f ; per element beyond key_ns: compaction's branch-free write of every key\n",
                compact_ns - key_ns > 0 ? compact_ns - key_ns : 0);
        fprintf(f, "store_skip_ns = %.3f ; a mispredicted skip of store's masked write, per worker (store at S = 0 and where it goes either way)\n",
                skip_ns);
        fprintf(f, "store_skip_lanes = %d ; keys one skip branch covers (16: AVX-512, 8: AVX2, 1: a branch a key)\n", lanes);
        fprintf(f, "copy_gbps = %.3f ; concatenating the private regions into place\n", copy_gbps);
        fprintf(f, "zero_ns_per_bin = %.4f ; zeroing a private histogram, per bin (2^22 bins, every worker)\n",
                zero_big > 0 ? zero_big : 0);
        fprintf(f, "merge_ns_per_bin = %.4f ; summing one bin over every worker's copy, bins split across workers\n\n",
                merge_big > 0 ? merge_big : 0);
        fprintf(f, "[cache]\nl1_bytes = %.0f ; sysconf\nl2_bytes = %.0f ; sysconf\nllc_bytes = %.0f ; sysconf, shared by the workers\n",
                l1, l2, llc);
        for (int k = 0; k < 4; k++)
            fprintf(f, "update_%s_ns = %.4f ; per histogram update beyond key_ns, private bins in %s (%s)\n", names[k],
                    ns[k], names[k], src[k]);
        fprintf(f, "update_same_bin_ns = %.4f ; extra when consecutive updates hit one bin (K = 1), scaled by 1/K\n",
                same_bin_ns);
        fclose(f);
    }
    fprintf(stderr, "cpubench: %d workers on %s: pool %.2f us, key %.3f ns, reduce %.3f ns, bitmask %.3f ns, compact %.3f ns, "
                    "l1/l2/llc/dram update %.3f/%.3f/%.3f/%.3f ns\n",
            workers, model, pool_us, key_ns, reduce_ns, bitmask_ns, compact_ns, ns[0], ns[1], ns[2], ns[3]);
    if (csv && csv != stdout)
        fclose(csv);
    cpb_pool_close(pool);
    return 0;
}
